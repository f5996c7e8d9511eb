import 'server-only';
import { sql } from 'drizzle-orm';
import { env } from '@/env';
import { startAdminSocket } from '@/server/admin/socket';
import { getDatabase } from '@/server/db/client';

/**
 * Runs once when the server process starts (instrumentation hook): validates the settings,
 * opens and migrates the database, and, for the embedded database, opens the admin socket
 * the CLI uses while the server holds the data directory. Any failure stops the start.
 */
export async function boot(): Promise<void> {
  try {
    const config = env();
    const database = await getDatabase();
    console.log(`[db] ${database.kind} database ready (${database.location})`);
    if (database.kind === 'embedded') {
      // PGlite runs no autovacuum: refresh the planner's statistics at each start.
      await database.db.execute(sql`ANALYZE`);
      await startAdminSocket(database, config.DATA_DIR);
    }
    const shutdown = () => {
      void database.close().finally(() => process.exit(0));
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  } catch (error) {
    console.error(
      `\n起動できません (cannot start):\n${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}
