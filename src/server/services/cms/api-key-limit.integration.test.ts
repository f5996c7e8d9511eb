import { afterEach, describe, expect, it, vi } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { enforceRateLimit, forgetLocalCounts } from './api-key-limit';
import type { ApiKeyPrincipal } from '@/server/services/cms/api-keys';
import { apiClient } from '@test-support/content-api-client';

process.env.CMS_RATE_LIMIT_WRITE = '3';
process.env.CMS_RATE_LIMIT_READ = '1000';

/**
 * Holds the clock at the start of a second, so that every request falls in one window however
 * slowly a loaded machine sends them (only Date is held: timers still run).
 */
function holdClockInOneSecond(): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Math.ceil(Date.now() / 1000) * 1000 + 5 });
}

describe('content API rate limit', () => {
  const database = testDatabase({ global: false });
  afterEach(() => vi.useRealTimers());

  it('answers 429 with X-RateLimit-* headers past the per-second limit, per key', async () => {
    const a = (await apiClient(database.db)).call;
    const b = (await apiClient(database.db)).call;
    holdClockInOneSecond();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await a('POST', 'tags', { body: { name: `t${i}` } }));
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([201, 201, 201]);
    const limited = results[3]!;
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too many requests, please try again later.' });
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('3');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(Number(limited.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect((await b('POST', 'tags', { body: { name: 'other key' } })).status).toBe(201);
    expect((await a('GET', 'tags?limit=0')).status).toBe(200); // reads have their own budget
  });

  it('shares the count between app instances through the database', async () => {
    const a = (await apiClient(database.db)).call;
    holdClockInOneSecond();
    expect((await a('POST', 'tags', { body: { name: 'one' } })).status).toBe(201);
    expect((await a('POST', 'tags', { body: { name: 'two' } })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 80)); // the batched count reaches the database
    forgetLocalCounts(); // a second instance knows nothing locally
    expect((await a('POST', 'tags', { body: { name: 'three' } })).status).toBe(201);
    expect((await a('POST', 'tags', { body: { name: 'four' } })).status).toBe(429);
  });

  it('counts the requests of a batch while it is on its way to the database', async () => {
    const principal: ApiKeyPrincipal = {
      id: 'key-in-flight',
      name: 'in flight',
      permissions: new Set(['POST']),
      internal: false,
    };
    vi.useFakeTimers({
      toFake: ['Date', 'setTimeout'],
      now: Math.ceil(Date.now() / 1000) * 1000 + 5,
    });
    await enforceRateLimit(database.db, principal, 'write'); // the window's first: sent at once
    await enforceRateLimit(database.db, principal, 'write'); // batched
    vi.advanceTimersByTime(50); // the batch leaves; its INSERT has not answered yet
    // Nothing below awaits before counting: these two are judged while the batch is in flight.
    const third = enforceRateLimit(database.db, principal, 'write');
    const fourth = enforceRateLimit(database.db, principal, 'write');
    await expect(third).resolves.toBeUndefined();
    await expect(fourth).rejects.toMatchObject({ status: 429 });
  });
});
