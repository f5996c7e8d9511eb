import 'server-only';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * An aggregate of every row of a select as one JSON array of objects, `fields` naming each
 * object's keys and columns (`[]` when there is no row). PGlite hands each field of each row to
 * JS on its own: for the thousands of items of the business report's views that cost
 * two to three times the query itself, where one JSON text is parsed at once
 * (docs/decisions/049-page-view-roll-up.md). Values arrive as JSON does: a timestamp as ISO text.
 */
export function jsonRows<Row>(fields: Record<keyof Row & string, SQLWrapper>): SQL<Row[]> {
  const pairs = Object.entries<SQLWrapper>(fields).map(([key, column]) => {
    if (!/^[A-Za-z]+$/.test(key)) throw new Error(`jsonRows: unexpected key ${key}`);
    return sql`${sql.raw(`'${key}'`)}, ${column}`;
  });
  return sql<Row[]>`coalesce(json_agg(json_build_object(${sql.join(pairs, sql`, `)})), '[]'::json)`;
}
