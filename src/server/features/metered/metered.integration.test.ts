import { type TestFrontServer, startFrontServer } from '@test-support/front-server';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { count, eq } from 'drizzle-orm';
import { renderToReadableStream } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { parseEnv } from '@/env';
import type { AppUser } from '@/server/features/identity';
import type { PageTestState } from '@test-support/site-content-mock';
import { addUser, appUser, roleRouteTests } from '@test-support/route-tests';
import { openRenderRecord } from '@/server/features/audience/render-record';
import { servedAs } from '@/server/features/audience/audience';
import { inRequest } from '@/server/platform/http/request-context';
import { cmsContents, meteredReads, subscriptions } from '@/server/platform/db/schema';
import { createSiteContent } from '@/server/features/content/site-content';
import { createContent } from '@/server/services/cms/writes';
import { feedResponse } from '@/server/features/seo/feed';
import { searchSite } from '@/server/features/search/site-search';
import { countsAsRead } from '@/server/features/front/reader-opens';
import { noteReaderOpens, readerOpensPage } from './opens';
import { forgetMeteredAllowance, meteredAllowance, setMeteredAllowance } from './allowance';
import { forgetMeteredReads, meterRead } from './reads';
import { meteredConversions } from './conversions';

/**
 * The attack tests of the metered wall (docs/decisions/055-metered-wall.md), on a real database:
 * the count is the database's (never a cookie's), ten opens at once never pass the allowance, only
 * a reader's page load spends a read (not a prefetch, an RSC request, a HEAD or a bot), a re-read
 * is free, months are Japan's, 0 is today's paywall, and a metered render is never an audience's
 * page. The audience cookie's side (replayed and altered cookies) is in
 * src/server/features/front/request-audience.integration.test.ts.
 */

const state = vi.hoisted((): PageTestState & { user: AppUser | null } => ({
  viewer: { kind: 'anonymous' },
  site: undefined,
  user: null,
}));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () => Promise.resolve({ get: () => undefined }),
}));
vi.mock('@/server/features/access/current-viewer', async () =>
  (await import('@test-support/site-content-mock')).currentViewerFromState(state),
);
vi.mock('@/server/features/identity/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  sessionUser: () => Promise.resolve(state.user),
}));
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);

// Client islands that need a mounted router; what they show is not what is checked here.
vi.mock('@/components/bookmarks/bookmark-button.client', () => ({ BookmarkButton: () => null }));

const { readPost } = await import('@/server/features/access/read');
const { default: PostPage } = await import('@/app/posts/[contentId]/page');

/** The post page as HTML, its async components awaited, in a request the front server counted or not. */
async function pageHtml(who: AppUser | null, id: string, opens: boolean): Promise<string> {
  state.user = who;
  state.viewer = who ? { kind: 'member', paid: false } : { kind: 'anonymous' };
  const request = { requestId: `page-${id}-${String(opens)}` };
  if (opens) noteReaderOpens(request);
  return inRequest(request, async () => {
    const element = await PostPage({ params: Promise.resolve({ contentId: id }) });
    const stream = await renderToReadableStream(element);
    await stream.allReady;
    return new Response(stream).text();
  });
}

const { database } = roleRouteTests('metered');
const free = appUser('metered-free', 'member');
const racer = appUser('metered-racer', 'member');
const months = appUser('metered-months', 'member');
const admin = appUser('metered-admin', 'admin');
const late = appUser('metered-late', 'member');
const SECRET = 'メーターノヒミツ';
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}${SECRET}</p>`;
/** Members' posts only a paid plan opens (the three newest are the free plan's). */
const PAID_ONLY = Array.from({ length: 12 }, (_, n) => `metered-${n}`);
const posts: Record<string, { id: string; createdAt: string }> = {};
const ALLOWANCE = 3;

beforeAll(async () => {
  for (const who of [free, racer, months, admin, late]) await addUser(database, who);
  state.site = createSiteContent({ db: database.db });
  const endpoint = findEndpoint('posts')!;
  const make = (id: string, minutes: number) =>
    createContent(database.db, endpoint, {
      id,
      status: 'publish',
      body: {
        title: `記事 ${id}`,
        body,
        isPublicPreview: false,
        publishedAt: new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString(),
      },
    });
  for (const [n, id] of PAID_ONLY.entries()) await make(id, n);
  for (const n of [1, 2, 3]) await make(`metered-newer-${n}`, 100 + n);
  for (const id of PAID_ONLY) {
    const [row] = await database.db
      .select({ createdAt: cmsContents.createdAt })
      .from(cmsContents)
      .where(eq(cmsContents.id, id));
    posts[id] = { id, createdAt: row!.createdAt.toISOString() };
  }
});
afterAll(() => state.site?.dispose());
beforeEach(async () => {
  await database.db.delete(meteredReads);
  forgetMeteredReads();
  await setMeteredAllowance(database.db, ALLOWANCE, { actor: `user:${admin.id}`, ip: null });
});

const readsOf = async (who: AppUser) =>
  (
    await database.db
      .select({ n: count() })
      .from(meteredReads)
      .where(eq(meteredReads.userId, who.id))
  )[0]!.n;

/** The post page's read of `id` by a free member, in a request the front server counted or not. */
async function pageAs(who: AppUser | null, id: string, opens: boolean, requestId = `r-${id}`) {
  state.user = who;
  state.viewer = who ? { kind: 'member', paid: false } : { kind: 'anonymous' };
  const request = { requestId };
  // As if the front server had kept a record: a metered render must still never be filed.
  const record = openRenderRecord(request);
  if (opens) noteReaderOpens(request);
  const read = (await inRequest(request, () => readPost(id)))!;
  return { read, record };
}

describe('the meter', () => {
  it('ten opens at once never open more than the allowance', async () => {
    const now = new Date('2026-11-10T03:00:00Z');
    const opened = await Promise.all(
      PAID_ONLY.slice(0, 10).map((id) =>
        meterRead(database.db, racer.id, posts[id]!, { now, allowance: ALLOWANCE, consume: true }),
      ),
    );
    expect(opened.filter((o) => o.opened)).toHaveLength(ALLOWANCE);
    expect(await readsOf(racer)).toBe(ALLOWANCE);
  });

  it('ten page loads at once through the post page’s reader open at most the allowance', async () => {
    const reads = await Promise.all(
      PAID_ONLY.slice(0, 10).map((id, n) => pageAs(free, id, true, `race-${n}`)),
    );
    expect(reads.filter(({ read }) => read.full)).toHaveLength(ALLOWANCE);
    expect(await readsOf(free)).toBe(ALLOWANCE);
    for (const { read, record } of reads) {
      expect(record.personal).toBe(true);
      if (!read.full) expect(JSON.stringify(read)).not.toContain(SECRET);
    }
  });

  it('a re-read is free, and months roll over at midnight in Japan', async () => {
    const meter = (id: string, at: string) =>
      meterRead(database.db, months.id, posts[id]!, {
        now: new Date(at),
        allowance: 1,
        consume: true,
      });
    // 2026-11-30 23:59:59 JST: November.
    expect(await meter(PAID_ONLY[0]!, '2026-11-30T14:59:59Z')).toEqual({ opened: true, left: 0 });
    expect(await meter(PAID_ONLY[0]!, '2026-11-30T14:59:59Z')).toEqual({ opened: true, left: 0 });
    expect(await meter(PAID_ONLY[1]!, '2026-11-30T14:59:59Z')).toEqual({ opened: false, left: 0 });
    // 2026-12-01 00:00 JST: December, a fresh allowance (still 2026-11-30 in UTC).
    expect(await meter(PAID_ONLY[1]!, '2026-11-30T15:00:00Z')).toEqual({ opened: true, left: 0 });
    expect(await readsOf(months)).toBe(2);
  });
});

describe('what spends a read', () => {
  it('only a page load the front server counted spends one; anything else only looks', async () => {
    const id = PAID_ONLY[4]!;
    const looked = await pageAs(free, id, false);
    expect(looked.read).toMatchObject({ full: false, meter: { perMonth: ALLOWANCE, left: 3 } });
    expect(JSON.stringify(looked.read)).not.toContain(SECRET);
    expect(await readsOf(free)).toBe(0);

    const opened = await pageAs(free, id, true);
    expect(opened.read).toMatchObject({ full: true, metered: true, meter: { left: 2 } });
    expect(opened.read.item.body).toContain(SECRET);
    // A re-read, even by a request that does not count (a prefetch, a navigation), is free.
    const again = await pageAs(free, id, false);
    expect(again.read).toMatchObject({ full: true, metered: true, meter: { left: 2 } });
    expect((await pageAs(free, id, true)).read).toMatchObject({ full: true, meter: { left: 2 } });
    expect(await readsOf(free)).toBe(1);
    // Every render that asked the meter is this reader's alone: never filed for an audience.
    for (const { record } of [looked, opened, again]) expect(record.personal).toBe(true);
  });

  it('used up: the paywall, with the allowance and no members’ text', async () => {
    for (const id of PAID_ONLY.slice(0, ALLOWANCE)) await pageAs(free, id, true);
    const { read, record } = await pageAs(free, PAID_ONLY[5]!, true);
    expect(read).toMatchObject({ full: false, meter: { perMonth: ALLOWANCE, left: 0 } });
    expect(JSON.stringify(read)).not.toContain(SECRET);
    expect(record.personal).toBe(true);
  });

  it('a visitor keeps the paywall, told the allowance, as every visitor’s page', async () => {
    const { read, record } = await pageAs(null, PAID_ONLY[6]!, true);
    expect(read).toMatchObject({ full: false, meter: { perMonth: ALLOWANCE } });
    expect(read.meter).not.toHaveProperty('left');
    expect(JSON.stringify(read)).not.toContain(SECRET);
    // The same for every visitor: it may stay their audience's page.
    expect(record).toMatchObject({ personal: false, audience: null });
  });

  it('feeds and search know nothing of the meter, even for a post the reader opened', async () => {
    await pageAs(free, PAID_ONLY[7]!, true);
    const member = { kind: 'member', paid: false } as const;
    const source = { client: state.site!.client, db: database.db };
    const results = await searchSite(source, { q: SECRET, type: 'all', page: 1 }, member);
    expect(results.hits.map((h) => h.id)).not.toContain(PAID_ONLY[7]);
    const feed = await (
      await feedResponse(state.site!.client, { siteUrl: 'https://axis.example.jp', siteName: 'A' })
    ).text();
    expect(feed).toContain(`/posts/${PAID_ONLY[7]}`);
    expect(feed).not.toContain(SECRET);
  });

  it('allowance 0 is today’s paywall exactly: nothing asked, nothing written', async () => {
    await setMeteredAllowance(database.db, 0, { actor: `user:${admin.id}`, ip: null });
    const { read, record } = await pageAs(free, PAID_ONLY[8]!, true);
    expect(read.full).toBe(false);
    expect(read).not.toHaveProperty('meter');
    expect(record.personal).toBe(false);
    expect(await readsOf(free)).toBe(0);
    expect(servedAs('member', '/posts/a', { metered: false })).toBe('member');
    expect((await pageAs(null, PAID_ONLY[8]!, true)).read).not.toHaveProperty('meter');
  });

  it('the allowance is the console’s setting, else METERED_READS_PER_MONTH', async () => {
    await database.db.delete((await import('@/server/platform/db/schema')).siteSettings);
    forgetMeteredAllowance();
    expect(await meteredAllowance()).toBe(0);
    expect(parseEnv({ ...process.env, METERED_READS_PER_MONTH: '4' }).METERED_READS_PER_MONTH).toBe(
      4,
    );
    expect(() => parseEnv({ ...process.env, METERED_READS_PER_MONTH: '-1' })).toThrow();
    await setMeteredAllowance(database.db, 2, { actor: `user:${admin.id}`, ip: null });
    expect(await meteredAllowance()).toBe(2);
  });
});

describe('what metered reads led to, per post', () => {
  it('a plan counts once, for its reader’s last metered read in the 30 days before it', async () => {
    const at = (iso: string) => new Date(iso);
    const read = (who: AppUser, id: string, when: string) =>
      meterRead(database.db, who.id, posts[id]!, { now: at(when), allowance: 5, consume: true });
    await read(free, PAID_ONLY[0]!, '2026-10-01T00:00:00Z');
    await read(free, PAID_ONLY[1]!, '2026-10-08T00:00:00Z');
    // Read after the plan was taken: not what led to it.
    await read(free, PAID_ONLY[2]!, '2026-10-20T00:00:00Z');
    // Read 40 days before the plan: too long before.
    await read(late, PAID_ONLY[0]!, '2026-09-01T00:00:00Z');
    await read(late, PAID_ONLY[3]!, '2026-10-01T00:00:00Z');
    const plan = (id: string, who: AppUser, when: string, provider = 'stripe') => ({
      id,
      userId: who.id,
      provider,
      status: 'active',
      planName: '月額',
      createdAt: at(when),
    });
    await database.db.insert(subscriptions).values([
      plan('sub_metered_free', free, '2026-10-10T00:00:00Z'),
      plan('sub_metered_late', late, '2026-10-11T00:00:00Z'),
      // Granted by the staff or by a gift, not taken: not what a read led to.
      plan('sub_metered_granted', free, '2026-10-12T00:00:00Z', 'complimentary'),
      plan('sub_metered_gift', late, '2026-10-12T00:00:00Z', 'gift'),
    ]);
    const since = at('2026-09-15T00:00:00Z');
    const rows = await meteredConversions(database.db, { since });
    const of = (id: string) => rows.find((r) => r.contentId === id);
    expect(of(PAID_ONLY[1]!)).toEqual({
      contentId: PAID_ONLY[1],
      reads: 1,
      readers: 1,
      subscriptions: 1,
    });
    expect(of(PAID_ONLY[3]!)).toMatchObject({ subscriptions: 1 });
    expect(of(PAID_ONLY[0]!)).toMatchObject({ reads: 1, readers: 1, subscriptions: 0 });
    expect(of(PAID_ONLY[2]!)).toMatchObject({ subscriptions: 0 });
    expect(rows.reduce((n, r) => n + r.subscriptions, 0)).toBe(2);
    await database.db.delete(subscriptions);
  });
});

describe('the post page', () => {
  it('a metered read: the count near the top, the whole post, the plans at its end', async () => {
    const page = await pageHtml(free, PAID_ONLY[9]!, true);
    expect(page).toContain('今月あと2本読めます');
    expect(page).toContain(SECRET);
    expect(page).toContain('有料会員になると、すべての記事が読めます');
    // The plans (none on sale in this database) and the plans page, back to this post.
    expect(page).toContain(`/service-plans?next=${encodeURIComponent(`/posts/${PAID_ONLY[9]}`)}`);
  });

  it('a navigation to an unread post: the paywall, the count and 「全文を読む」 as a page load', async () => {
    const page = await pageHtml(free, PAID_ONLY[10]!, false);
    expect(page).not.toContain(SECRET);
    expect(page).toContain('今月あと3本読めます');
    expect(page).toContain(`href="/posts/${PAID_ONLY[10]}"`);
  });

  it('used up: the paywall says so and when it comes back; a visitor is told the allowance', async () => {
    for (const id of PAID_ONLY.slice(0, ALLOWANCE)) await pageAs(free, id, true);
    const spent = await pageHtml(free, PAID_ONLY[11]!, true);
    expect(spent).not.toContain(SECRET);
    expect(spent).toContain('来月1日（日本時間）に3本読めるようになります');
    const visitor = await pageHtml(null, PAID_ONLY[11]!, true);
    expect(visitor).not.toContain(SECRET);
    expect(visitor).toContain('会員限定の記事を毎月3本まで全文お読みいただけます');
  });
});

describe('which requests the front server counts', () => {
  const CHROME =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  const req = (headers: IncomingHttpHeaders, method = 'GET', url = '/posts/metered-1') =>
    ({ method, url, headers: { 'user-agent': CHROME, ...headers } }) as IncomingMessage;

  it('a page load of a post counts; HEAD, prefetches, RSC requests and bots do not', () => {
    expect(countsAsRead(req({ 'sec-fetch-dest': 'document' }))).toBe(true);
    expect(countsAsRead(req({}))).toBe(true);
    expect(countsAsRead(req({}, 'GET', '/posts/metered-1?ref=x'))).toBe(true);
    expect(countsAsRead(req({}, 'HEAD'))).toBe(false);
    expect(countsAsRead(req({ rsc: '1' }))).toBe(false);
    expect(countsAsRead(req({ rsc: '1', 'next-router-prefetch': '1' }))).toBe(false);
    expect(countsAsRead(req({ 'next-router-prefetch': '1' }))).toBe(false);
    expect(countsAsRead(req({ 'sec-fetch-dest': 'document', 'sec-purpose': 'prefetch' }))).toBe(
      false,
    );
    expect(countsAsRead(req({ purpose: 'prefetch' }))).toBe(false);
    expect(countsAsRead(req({ 'sec-fetch-dest': 'empty' }))).toBe(false);
    expect(countsAsRead(req({ 'sec-fetch-dest': 'document', rsc: '1' }))).toBe(false);
    expect(countsAsRead(req({ 'user-agent': 'Googlebot/2.1' }))).toBe(false);
    expect(countsAsRead(req({ 'user-agent': '' }))).toBe(false);
    for (const url of ['/posts', '/posts/a/gift', '/feed.xml', '/search?q=a', '/audios/a'])
      expect(countsAsRead(req({}, 'GET', url))).toBe(false);
  });

  describe('through the pipeline', () => {
    const counted: Record<string, boolean> = {};
    function framework(req: IncomingMessage, res: ServerResponse) {
      counted[String(req.headers['x-test'])] = readerOpensPage();
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<p>ok</p>');
      return Promise.resolve();
    }
    let front: TestFrontServer | undefined;
    let base = '';
    beforeAll(async () => {
      front = await startFrontServer(framework, null);
      base = front.base;
    });
    afterAll(() => front?.stop());

    it('notes a page load only; a header cannot claim one', async () => {
      const send = (test: string, headers: Record<string, string>, method = 'GET') =>
        fetch(`${base}/posts/metered-1`, {
          method,
          headers: { 'user-agent': CHROME, 'x-test': test, ...headers },
        });
      await send('load', { 'sec-fetch-dest': 'document' });
      await send('head', { 'sec-fetch-dest': 'document' }, 'HEAD');
      await send('prefetch', { rsc: '1', 'next-router-prefetch': '1' });
      await send('navigation', { rsc: '1' });
      await send('forged', { 'sec-fetch-dest': 'empty', 'x-axis-opens': '1', 'x-axis-read': '1' });
      expect(counted).toEqual({
        load: true,
        head: false,
        prefetch: false,
        navigation: false,
        forged: false,
      });
    });
  });
});
