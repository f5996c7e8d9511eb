import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { findEndpoint } from '@/lib/cms/model';
import { pageViews } from '@/server/platform/db/schema';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import type { Viewer } from '@/lib/access/post-access';
import { pathStartOf } from '@/server/features/attribution/attribution';
import type { ContentRef } from '@/server/features/attribution/content-path';
import { countTopContent, countViewsPerDay } from './page-views';
import { loadAnalyticsReport } from './report';
import { VIEW_LIMIT, handleViewBeacon } from './view-endpoint';
import { createContent } from '@/server/services/cms/writes';

const SITE = 'http://localhost:3000';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const VISITOR_A = '11111111-1111-4111-8111-111111111111';
const VISITOR_B = '22222222-2222-4222-8222-222222222222';
const VISITOR_C = '33333333-3333-4333-8333-333333333333';
/** 2026-05-10 23:30 in Japan (14:30 UTC). */
const MAY_10_JST_LATE = Date.parse('2026-05-10T14:30:00Z');
/** 2026-05-11 00:30 in Japan, while it is still the 10th in UTC. */
const MAY_11_JST_EARLY = Date.parse('2026-05-10T15:30:00Z');

describe('page-view analytics against the database', () => {
  const database = testDatabase();
  let ipCounter = 0;
  /** A fresh address per request, so the per-address limit only bites where a test means it. */
  const nextIp = () => `198.51.100.${++ipCounter % 250}`;

  function beacon(
    body: unknown,
    options: { ip?: string; origin?: string | null; userAgent?: string | null } = {},
  ): Request {
    const headers = new Headers({
      host: 'localhost:3000',
      'content-type': 'text/plain;charset=UTF-8',
    });
    const origin = options.origin === undefined ? SITE : options.origin;
    if (origin !== null) headers.set('origin', origin);
    const userAgent = options.userAgent === undefined ? CHROME : options.userAgent;
    if (userAgent !== null) headers.set('user-agent', userAgent);
    headers.set(CLIENT_IP_HEADER, options.ip ?? nextIp());
    return new Request(`${SITE}/api/analytics/view`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  const send = (request: Request, now = MAY_10_JST_LATE) =>
    handleViewBeacon(request, { db: database.db, now: () => now });

  const storedViews = () =>
    database.db
      .select({
        day: pageViews.day,
        path: pageViews.path,
        endpoint: pageViews.endpoint,
        contentId: pageViews.contentId,
        referrer: pageViews.referrer,
        visitorId: pageViews.visitorId,
        occurredAt: pageViews.occurredAt,
      })
      .from(pageViews);

  beforeEach(async () => {
    await database.db.delete(pageViews);
  });

  it('records a view with the content id from the path and the day in Japan', async () => {
    const response = await send(
      beacon({
        path: '/posts/abc123?utm_source=newsletter',
        referrer: 'https://www.google.com/search?q=%E5%90%8D%E5%89%8D',
        visitorId: VISITOR_A,
        // Ignored: the server decides what the page shows.
        endpoint: 'movies',
        contentId: 'other',
      }),
      MAY_11_JST_EARLY,
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await storedViews()).toEqual([
      {
        day: '2026-05-11',
        path: '/posts/abc123',
        endpoint: 'posts',
        contentId: 'abc123',
        referrer: 'https://www.google.com/search',
        visitorId: VISITOR_A,
        occurredAt: new Date(MAY_11_JST_EARLY),
      },
    ]);
  });

  it('records pages that show no item without a content id', async () => {
    for (const path of ['/', '/posts/bookmark', '/posts/abc/preview', '/feature']) {
      expect((await send(beacon({ path, visitorId: VISITOR_A }))).status).toBe(204);
    }
    const rows = await storedViews();
    expect(rows.map((r) => [r.path, r.endpoint, r.contentId, r.day])).toEqual([
      ['/', null, null, '2026-05-10'],
      ['/posts/bookmark', null, null, '2026-05-10'],
      ['/posts/abc/preview', null, null, '2026-05-10'],
      ['/feature', null, null, '2026-05-10'],
    ]);
  });

  it.each([
    ['not JSON', 'path=/posts/abc'],
    ['an empty body', ''],
    ['a URL for a path', { path: 'https://evil.example/', visitorId: VISITOR_A }],
    ['a bad visitor id', { path: '/posts/abc', visitorId: 'me' }],
    ['a path that is too long', { path: `/${'a'.repeat(600)}`, visitorId: VISITOR_A }],
  ])('answers 400 with a JSON message for %s and stores nothing', async (_name, body) => {
    const response = await send(beacon(body));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await response.json()) as { message: string };
    expect(answer.message).toMatch(/計測データ/);
    expect(await storedViews()).toEqual([]);
  });

  it('refuses a body over 2 KB, and invalid UTF-8, without storing', async () => {
    const big = await send(
      beacon({ path: '/', referrer: `https://a.jp/${'x'.repeat(3000)}`, visitorId: VISITOR_A }),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as { message: string }).message).toMatch(/大きすぎ/);
    const request = new Request(`${SITE}/api/analytics/view`, {
      method: 'POST',
      headers: { origin: SITE, 'user-agent': CHROME, [CLIENT_IP_HEADER]: nextIp() },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const broken = await send(request);
    expect(broken.status).toBe(400);
    expect(await storedViews()).toEqual([]);
  });

  it('refuses another site with 403', async () => {
    const response = await send(
      beacon({ path: '/posts/abc', visitorId: VISITOR_A }, { origin: 'https://evil.example' }),
    );
    expect(response.status).toBe(403);
    expect(await storedViews()).toEqual([]);
  });

  it('ignores bots with a 204 and stores nothing', async () => {
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    for (const userAgent of [googlebot, null]) {
      const response = await send(
        beacon({ path: '/posts/abc', visitorId: VISITOR_A }, { userAgent }),
      );
      expect(response.status).toBe(204);
    }
    expect(await storedViews()).toEqual([]);
  });

  it('answers 429 past the per-address limit and stores nothing more', async () => {
    const ip = '203.0.113.7';
    const now = Date.parse('2026-05-10T03:00:00.000Z'); // the start of a one-minute window
    const view = { path: '/posts/abc', visitorId: VISITOR_A };
    for (let i = 0; i < VIEW_LIMIT.max; i++) {
      const ok = await send(beacon(view, { ip }), now);
      expect(ok.status).toBe(204);
    }
    const over = await send(beacon(view, { ip }), now + 1000);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await over.json()) as { message: string }).message).toMatch(/一時的に/);
    expect(await storedViews()).toHaveLength(VIEW_LIMIT.max);
    // Another address, and the next window, are not affected.
    expect((await send(beacon(view), now + 1000)).status).toBe(204);
    expect((await send(beacon(view, { ip }), now + VIEW_LIMIT.windowMs)).status).toBe(204);
  });

  describe('paywall views and where the path to payment starts', () => {
    const member: Viewer = { kind: 'member', paid: false };
    /** The policy's answer: only p-gated is cut, and only for a viewer who is not paid. */
    const paywall = (viewer: Viewer, ref: ContentRef) =>
      Promise.resolve(ref.contentId === 'p-gated' && viewer.kind !== 'staff');
    const sendAs = (request: Request, viewer: Viewer = { kind: 'anonymous' }) =>
      handleViewBeacon(request, {
        db: database.db,
        now: () => MAY_10_JST_LATE,
        viewer: () => Promise.resolve(viewer),
        paywall,
      });
    const withHeaders = (request: Request, headers: Record<string, string>) => {
      for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
      return request;
    };
    const stored = () =>
      database.db
        .select({ path: pageViews.path, audience: pageViews.audience, paywall: pageViews.paywall })
        .from(pageViews);

    it('counts a paywall the server agrees was shown, and keeps the first one in a cookie', async () => {
      const shown = await sendAs(
        beacon({ path: '/posts/p-gated', visitorId: VISITOR_A, paywall: true }),
        member,
      );
      expect(shown.status).toBe(204);
      expect(shown.headers.get('set-cookie')).toBe(
        'axis_path_start=%2Fposts%2Fp-gated; Path=/; Max-Age=2592000; SameSite=Lax',
      );
      // A claim on an item the policy does not cut is a plain view, and starts nothing.
      const forged = await sendAs(
        beacon({ path: '/posts/p-open', visitorId: VISITOR_A, paywall: true }),
      );
      expect(forged.headers.get('set-cookie')).toBeNull();
      // A path already started is kept: the first paywall wins.
      const later = await sendAs(
        withHeaders(beacon({ path: '/posts/p-gated', visitorId: VISITOR_A, paywall: true }), {
          cookie: 'axis_path_start=%2Fposts%2Fp-first',
        }),
      );
      expect(later.headers.get('set-cookie')).toBeNull();
      // Staff are not cut, whatever the browser says.
      await sendAs(beacon({ path: '/posts/p-gated', visitorId: VISITOR_B, paywall: true }), {
        kind: 'staff',
      });
      expect(await stored()).toEqual([
        { path: '/posts/p-gated', audience: 'member', paywall: true },
        { path: '/posts/p-open', audience: 'anonymous', paywall: false },
        { path: '/posts/p-gated', audience: 'anonymous', paywall: true },
        { path: '/posts/p-gated', audience: 'staff', paywall: false },
      ]);
    });

    it.each<Record<string, string>>([{ dnt: '1' }, { 'sec-gpc': '1' }])(
      'keeps no path start under %o',
      async (headers) => {
        const response = await sendAs(
          withHeaders(
            beacon({ path: '/posts/p-gated', visitorId: VISITOR_A, paywall: true }),
            headers,
          ),
        );
        expect(response.status).toBe(204);
        expect(response.headers.get('set-cookie')).toBeNull();
      },
    );

    it('reads the path start back, never under DNT or GPC, nor a cookie that names no item', () => {
      const headers = (values: Record<string, string>) => new Headers(values);
      expect(pathStartOf(headers({ cookie: 'axis_path_start=%2Fposts%2Fp1' }))).toEqual({
        endpoint: 'posts',
        contentId: 'p1',
      });
      expect(
        pathStartOf(headers({ cookie: 'axis_path_start=%2Fposts%2Fp1', dnt: '1' })),
      ).toBeNull();
      expect(
        pathStartOf(headers({ cookie: 'axis_path_start=%2Fposts%2Fp1', 'sec-gpc': '1' })),
      ).toBeNull();
      expect(pathStartOf(headers({ cookie: 'axis_path_start=%2Fsearch' }))).toBeNull();
      expect(pathStartOf(headers({ cookie: 'axis_path_start=%E0%A4%A' }))).toBeNull();
      expect(pathStartOf(headers({}))).toBeNull();
    });
  });

  describe('aggregation', () => {
    const at = (day: string, hourJst = 12) =>
      Date.parse(`${day}T${String(hourJst).padStart(2, '0')}:00:00+09:00`);

    beforeEach(async () => {
      // [day, visitor, index into paths]
      const views: [string, string, number][] = [
        ['2026-05-08', VISITOR_A, 0],
        ['2026-05-08', VISITOR_A, 0],
        ['2026-05-08', VISITOR_B, 1],
        ['2026-05-09', VISITOR_A, 2],
        ['2026-05-10', VISITOR_A, 0],
        ['2026-05-10', VISITOR_B, 0],
        ['2026-05-10', VISITOR_C, 0],
        ['2026-05-10', VISITOR_C, 3],
        ['2026-05-10', VISITOR_C, 4],
        ['2026-05-10', VISITOR_B, 5],
      ];
      const paths = ['/posts/p1', '/feature/f1', '/movies/m1', '/', '/jobs/j1', '/posts/p2'];
      for (const [day, visitorId, pathIndex] of views) {
        const response = await send(beacon({ path: paths[pathIndex], visitorId }), at(day));
        expect(response.status).toBe(204);
      }
      // Outside a 30-day window ending on the 10th.
      await send(beacon({ path: '/posts/p2', visitorId: VISITOR_A }), at('2026-04-10'));
      await send(beacon({ path: '/posts/p2', visitorId: VISITOR_B }), at('2026-04-10'));
    });

    it('counts views and distinct visitors per day', async () => {
      expect(await countViewsPerDay(database.db, { from: '2026-05-08', to: '2026-05-10' })).toEqual(
        [
          { day: '2026-05-08', views: 3, visitors: 2 },
          { day: '2026-05-09', views: 1, visitors: 1 },
          { day: '2026-05-10', views: 6, visitors: 3 },
        ],
      );
      expect(await countViewsPerDay(database.db, { from: '2026-05-09', to: '2026-05-09' })).toEqual(
        [{ day: '2026-05-09', views: 1, visitors: 1 }],
      );
    });

    it('ranks content items by views, then visitors, and leaves out pages that are not items', async () => {
      // Visitors are counted once a day and summed over the days (decision 049): p1 had A on the
      // 8th (twice) and A, B and C on the 10th, so 4.
      expect(
        await countTopContent(database.db, { from: '2026-05-08', to: '2026-05-10', limit: 50 }),
      ).toEqual([
        { endpoint: 'posts', contentId: 'p1', views: 5, visitors: 4 },
        { endpoint: 'categories', contentId: 'f1', views: 1, visitors: 1 },
        { endpoint: 'jobs', contentId: 'j1', views: 1, visitors: 1 },
        { endpoint: 'movies', contentId: 'm1', views: 1, visitors: 1 },
        { endpoint: 'posts', contentId: 'p2', views: 1, visitors: 1 },
      ]);
      expect(
        await countTopContent(database.db, { from: '2026-04-01', to: '2026-05-10', limit: 2 }),
      ).toEqual([
        { endpoint: 'posts', contentId: 'p1', views: 5, visitors: 4 },
        // B on the 10th of April and again on the 10th of May: twice.
        { endpoint: 'posts', contentId: 'p2', views: 3, visitors: 3 },
      ]);
    });

    it('builds the 30-day report with every day and the titles from the content service', async () => {
      await createContent(database.db, findEndpoint('posts')!, {
        id: 'p1',
        body: { title: 'よく読まれた記事', isPublicPreview: true },
        status: 'publish',
      });
      await createContent(database.db, findEndpoint('categories')!, {
        id: 'f1',
        body: { name: '特集「余白」' },
        status: 'publish',
      });
      const report = await loadAnalyticsReport(database.db, { now: at('2026-05-10', 23) });
      expect(report.from).toBe('2026-04-11');
      expect(report.to).toBe('2026-05-10');
      expect(report.days).toHaveLength(30);
      expect(report.days[0]).toEqual({ day: '2026-04-11', views: 0, visitors: 0 });
      expect(report.days.slice(-3)).toEqual([
        { day: '2026-05-08', views: 3, visitors: 2 },
        { day: '2026-05-09', views: 1, visitors: 1 },
        { day: '2026-05-10', views: 6, visitors: 3 },
      ]);
      expect(report.totalViews).toBe(10);
      expect(report.top).toEqual([
        {
          endpoint: 'posts',
          contentId: 'p1',
          title: 'よく読まれた記事',
          href: '/posts/p1',
          views: 5,
          visitors: 4,
        },
        {
          endpoint: 'categories',
          contentId: 'f1',
          title: '特集「余白」',
          href: '/feature/f1',
          views: 1,
          visitors: 1,
        },
        // Not in the content service: shown by id.
        { endpoint: 'jobs', contentId: 'j1', title: null, href: '/jobs/j1', views: 1, visitors: 1 },
        {
          endpoint: 'movies',
          contentId: 'm1',
          title: null,
          href: '/movies/m1',
          views: 1,
          visitors: 1,
        },
        {
          endpoint: 'posts',
          contentId: 'p2',
          title: null,
          href: '/posts/p2',
          views: 1,
          visitors: 1,
        },
      ]);
    });
  });
});
