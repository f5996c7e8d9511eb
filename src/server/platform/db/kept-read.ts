import { singleton } from '@/lib/singleton';
import type { Db } from './client';

/**
 * A small read that every render of a page repeats and that changes rarely (the plans a paywall
 * offers, a console setting a form shows), kept per process and database for `ms`. On embedded
 * PGlite each statement costs its parse, the WebAssembly engine and the rows handed back, about
 * a millisecond of a render's CPU. A write through this process forgets it at once; another
 * instance's write is seen within `ms`. Only what a page shows reads through here: a decision
 * (may this member write, what does this plan cost at checkout) reads the database.
 * A failed read is not kept; concurrent readers share one read. (The metered wall's allowance
 * keeps its own copy, src/server/features/metered/allowance.ts: the front server asks it before
 * any database is at hand, and a database that cannot be opened keeps the wall off for 10 s
 * rather than being opened again on every request.)
 */
export type KeptRead<T> = {
  get(db: Db, now?: number): Promise<T>;
  forget(db: Db): void;
};

export function keptRead<T>(name: string, ms: number, read: (db: Db) => Promise<T>): KeptRead<T> {
  const kept = singleton(
    `kept-read:${name}`,
    () => new WeakMap<Db, { value: Promise<T>; until: number }>(),
  );
  return {
    get(db, now = Date.now()) {
      const hit = kept.get(db);
      if (hit && now < hit.until) return hit.value;
      const value = read(db);
      kept.set(db, { value, until: now + ms });
      value.catch(() => {
        if (kept.get(db)?.value === value) kept.delete(db);
      });
      return value;
    },
    forget(db) {
      kept.delete(db);
    },
  };
}
