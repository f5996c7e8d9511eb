import { describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { consumeSearch } from './search-limit';

describe('search rate limit', () => {
  const database = testDatabase({ global: false });

  const minute = (n: number) => Date.UTC(2026, 5, 1, 12, n, 0);

  it('allows 60 searches a minute per address, then asks to wait until the minute ends', async () => {
    const db = database.db;
    const at = minute(0) + 15_000;
    for (let i = 0; i < 60; i++) expect(await consumeSearch(db, '203.0.113.7', at)).toBeNull();
    expect(await consumeSearch(db, '203.0.113.7', at)).toBe(45);
    // Another address is counted on its own; a request without an address (no front server) is not limited.
    expect(await consumeSearch(db, '203.0.113.8', at)).toBeNull();
    expect(await consumeSearch(db, null, at)).toBeNull();
    // The next minute starts afresh.
    expect(await consumeSearch(db, '203.0.113.7', minute(1))).toBeNull();
  });

  it('counts an IPv6 /64 as one client', async () => {
    const db = database.db;
    const at = minute(30);
    for (let i = 0; i < 60; i++) {
      expect(await consumeSearch(db, `2001:db8:1:2::${(i + 1).toString(16)}`, at)).toBeNull();
    }
    expect(await consumeSearch(db, '2001:db8:1:2:ffff:ffff:ffff:ffff', at)).not.toBeNull();
    expect(await consumeSearch(db, '2001:db8:1:3::1', at)).toBeNull();
  });

  it('allows 600 searches an hour: the 8,000 searches of a guessing script take over 13 hours', async () => {
    const db = database.db;
    const ip = '198.51.100.20';
    const hour = Date.UTC(2026, 5, 2, 8, 0, 0);
    for (let m = 0; m < 10; m++) {
      for (let i = 0; i < 60; i++)
        expect(await consumeSearch(db, ip, hour + m * 60_000)).toBeNull();
    }
    const wait = await consumeSearch(db, ip, hour + 10 * 60_000);
    expect(wait).toBe(50 * 60);
  });
});
