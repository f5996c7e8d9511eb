import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';

/**
 * Test helper: a fingerprint of every table of the public schema and every sequence, computed
 * by PostgreSQL from each row's own text form (generated columns included), independent of the
 * backup's serialisation, to compare two instances.
 */
export async function databaseFingerprint(
  db: Db,
  options: { skipAuditActions?: string[] } = {},
): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string; kind: string }>(
    db,
    sql`SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'S') ORDER BY c.relname`,
  );
  const skip = options.skipAuditActions ?? [];
  const out: Record<string, string> = {};
  for (const { name, kind } of tables) {
    if (kind === 'S') {
      // Where it stands (log_cnt, its WAL read-ahead, differs between any two instances).
      const [seq] = await queryRows<{ at: string }>(
        db,
        sql.raw(`SELECT last_value::text || ':' || is_called::text AS at FROM "public"."${name}"`),
      );
      out[name] = `sequence ${seq!.at}`;
      continue;
    }
    const where =
      name === 'audit_events' && skip.length
        ? `WHERE t.action NOT IN (${skip.map((a) => `'${a.replace(/'/g, "''")}'`).join(', ')})`
        : '';
    const [row] = await queryRows<{ n: number; digest: string }>(
      db,
      sql.raw(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS digest
         FROM (SELECT t::text AS x FROM "public"."${name}" t ${where}) s`,
      ),
    );
    out[name] = `${row!.n}:${row!.digest}`;
  }
  return out;
}
