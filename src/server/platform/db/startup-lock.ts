import 'server-only';
import pg from 'pg';

/**
 * Runs `step` in one process at a time across every instance on the same PostgreSQL server
 * (a session-level advisory lock on a connection of its own, so that the step's own queries
 * may use the pool). For start-up steps that write shared setup, such as the billing
 * sandbox's catalogue and webhook endpoint: two instances starting at once would otherwise
 * both create them. The embedded database has one process: the step just runs.
 */
export async function oneInstanceAtATime<T>(
  databaseUrl: string | undefined,
  lockKey: number,
  step: () => Promise<T>,
): Promise<T> {
  if (!databaseUrl) return step();
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {}); // a lost connection releases the lock; the step reports its own errors
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    return await step();
  } finally {
    await client.end().catch(() => {}); // ending the session releases the lock
  }
}
