import { singleton } from '@/lib/singleton';
import type { Db } from './client';

/**
 * A statement drizzle builds once per database and then runs with its placeholders' values,
 * for the reads every rendered page asks: building a query anew (its column checks and SQL
 * text) cost about a third of a small read on the embedded database (docs/benchmarks.md,
 * "Rendering per request"). The statement's text and plan stay the database's to cache.
 */
export function preparedPerDatabase<Statement>(
  name: string,
  prepare: (db: Db) => Statement,
): (db: Db) => Statement {
  const statements = singleton(`prepared:${name}`, () => new WeakMap<Db, Statement>());
  return (db) => {
    let statement = statements.get(db);
    if (!statement) statements.set(db, (statement = prepare(db)));
    return statement;
  };
}
