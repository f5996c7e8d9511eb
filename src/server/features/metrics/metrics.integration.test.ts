import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { testDataDir, testDatabase } from '@test-support/route-tests';
import type { AppUser } from '@/server/features/identity/session-user';
import { metricsHandler } from './http';
import { countPageCache, routeLabel, timeRequest } from './metrics';
import { createContent, scheduleContent } from '@/server/services/cms/writes';

/**
 * /api/metrics on a real database: only a scraper with the token or staff read it (a bare 404
 * for everyone else), and it reports requests by route pattern, the page cache and the
 * database-backed gauges.
 */

testDataDir('metrics', { secret: false });
const TOKEN = 'metrics-test-token-'.padEnd(40, 'x');

const database = testDatabase();
beforeAll(async () => {
  const posts = findEndpoint('posts')!;
  await createContent(database.db, posts, {
    id: 'late',
    body: { title: '遅れた予約' },
    status: 'draft',
  });
  await scheduleContent(database.db, posts, 'late', new Date(Date.now() - 5 * 60_000), {
    actor: 'system',
  });
});

const user = (role: AppUser['role']): AppUser => ({
  id: `u-${role}`,
  email: `${role}@example.jp`,
  name: role,
  role,
  emailVerified: true,
});

function scrape(viewer: AppUser | null, authorization?: string) {
  const handler = metricsHandler({ viewer: () => Promise.resolve(viewer), token: TOKEN });
  return handler(
    new Request('http://localhost/api/metrics', {
      headers: authorization ? { authorization } : {},
    }),
  );
}

describe('route labels', () => {
  it('keeps route words and turns ids, encoded and odd segments into :id', () => {
    expect(routeLabel('/posts/post-001?utm=x')).toBe('/posts/:id');
    expect(routeLabel('/admin/content/posts/new')).toBe('/admin/content/posts/new');
    expect(routeLabel('/%E3%81%82/x')).toBe('/:id/x');
    expect(routeLabel('/')).toBe('/');
  });
});

describe('GET /api/metrics', () => {
  it('is a bare 404 without the token or a staff session', async () => {
    for (const [viewer, authorization] of [
      [null, undefined],
      [user('member'), undefined],
      [null, 'Bearer wrong-token'],
      [null, `Basic ${TOKEN}`],
      [user('member'), `Bearer ${TOKEN.slice(0, -1)}`],
    ] as const) {
      const response = await scrape(viewer, authorization);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('http_requests_total');
    }
  });

  it('reports requests, the page cache and the database gauges to a scraper or staff', async () => {
    timeRequest('GET', '/posts/post-001')(200);
    timeRequest('POST', '/api/account/sign-in')(429);
    countPageCache('hit');
    for (const response of [await scrape(null, `Bearer ${TOKEN}`), await scrape(user('editor'))]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toMatch(
        /http_requests_total\{route="\/posts\/:id",method="GET",status="200"\} 1/,
      );
      expect(text).toMatch(
        /http_requests_total\{route="\/api\/account\/sign-in",method="POST",status="429"\} 1/,
      );
      expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="\/posts\/:id"/);
      expect(text).toMatch(/page_cache_lookups_total\{result="hit"\} 1/);
      expect(text).toMatch(/content_scheduled_items\{state="overdue"\} 1/);
      expect(text).toMatch(/process_resident_memory_bytes \d+/);
      expect(text).toMatch(/^db_available 1$/m);
      // A PostgreSQL server's pool is reported; the embedded database has none.
      if (database.kind === 'postgres')
        expect(text).toMatch(/db_pool_connections\{state="total"\} \d+/);
      else expect(text).not.toMatch(/db_pool_connections\{/);
    }
  });
});
