import { describe, expect, it } from 'vitest';
import type { Db } from './client';
import { keptRead } from './kept-read';

/** Two databases as the kept read tells them apart: by identity. */
const dbA = {} as Db;
const dbB = {} as Db;

function counted(name: string, answers: Array<number | Error>) {
  const calls: Db[] = [];
  const kept = keptRead(name, 10_000, (db) => {
    calls.push(db);
    const next = answers.shift() ?? 0;
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  return { kept, calls };
}

describe('keptRead', () => {
  it('reads once per interval and database, and again once the interval is over', async () => {
    const { kept, calls } = counted('test-interval', [1, 2, 3]);
    expect(await kept.get(dbA, 0)).toBe(1);
    expect(await kept.get(dbA, 9_999)).toBe(1);
    expect(await kept.get(dbB, 9_999)).toBe(2);
    expect(await kept.get(dbA, 10_000)).toBe(3);
    expect(calls).toEqual([dbA, dbB, dbA]);
  });

  it('reads again at once after a write through this process forgot it', async () => {
    const { kept, calls } = counted('test-forget', [1, 2]);
    expect(await kept.get(dbA, 0)).toBe(1);
    kept.forget(dbA);
    expect(await kept.get(dbA, 1)).toBe(2);
    expect(calls).toHaveLength(2);
  });

  it('shares one read between concurrent readers and keeps no failure', async () => {
    const { kept, calls } = counted('test-failure', [new Error('database away'), 5]);
    const [first, second] = await Promise.allSettled([kept.get(dbA, 0), kept.get(dbA, 0)]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('rejected');
    expect(calls).toHaveLength(1);
    expect(await kept.get(dbA, 1)).toBe(5);
  });
});
