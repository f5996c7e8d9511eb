import { describe, expect, it, vi } from 'vitest';
import { openWhenReachable } from './wait-for-database';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('openWhenReachable', () => {
  it('waits 1 s doubling to 30 s while the server is unreachable, then opens', async () => {
    const sleeps: number[] = [];
    const lines: string[] = [];
    let failures = 8;
    const probe = vi.fn(() =>
      failures-- > 0
        ? Promise.reject(withCode('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'))
        : Promise.resolve(),
    );
    const open = vi.fn(() => Promise.resolve('database'));

    const opened = await openWhenReachable(open, {
      location: 'postgres://app:***@10.0.0.5:5432/app',
      probe,
      log: (line) => lines.push(line),
      sleep: (ms) => Promise.resolve(void sleeps.push(ms)),
    });

    expect(opened).toBe('database');
    expect(sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(open).toHaveBeenCalledOnce(); // only once the server answers
    expect(lines).toHaveLength(8);
    expect(lines[0]).toContain('postgres://app:***@10.0.0.5:5432/app');
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(lines[0]).toContain('PostgreSQL に接続できません');
  });

  it('also waits when the server goes away between the probe and the migration', async () => {
    const open = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'))
      .mockResolvedValue('database');
    const sleep = vi.fn(async () => {});
    await expect(openWhenReachable(open, { location: 'x', log: () => {}, sleep })).resolves.toBe(
      'database',
    );
    expect(sleep).toHaveBeenCalledOnce();
  });

  it.each([
    ['a wrong password', withCode('28P01', 'password authentication failed for user "app"')],
    ['a missing database', withCode('3D000', 'database "app" does not exist')],
    ['a failed migration', withCode('42P07', 'relation "users" already exists')],
  ])('stops at once on %s', async (_name, error) => {
    const sleep = vi.fn(async () => {});
    await expect(
      openWhenReachable(() => Promise.reject(error), { location: 'x', log: () => {}, sleep }),
    ).rejects.toBe(error);
    expect(sleep).not.toHaveBeenCalled();
  });
});
