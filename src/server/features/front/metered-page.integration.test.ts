import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { PageTestState } from '@test-support/site-content-mock';
import { addUser, appUser, roleRouteTests } from '@test-support/route-tests';
import { japanMonthKey } from '@/lib/metered/meter';
import { meteredReads } from '@/server/platform/db/schema';
import { createSiteContent } from '@/server/features/content/site-content';
import { createContent, deleteContent } from '@/server/services/cms/writes';
import { forgetMeteredReads, setMeteredAllowance } from '@/server/features/metered';
import { postGate } from '@/server/features/access';

/**
 * The attack tests of the meter run before the page cache (the amendment of
 * docs/decisions/055-metered-wall.md, "metered reads from the cache"): the `metered` entry is
 * named only after the database holds a read of that very post, by that very reader, this Japan
 * month; only a reader's page load may insert one; everything else gets the paywall or, when the
 * post cannot be told, no cache at all. Through the pipeline: metered-cache.integration.test.ts.
 */

const state = vi.hoisted((): PageTestState => ({ viewer: { kind: 'anonymous' }, site: undefined }));
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);

const { meteredPage } = await import('./metered-page');

const { database } = roleRouteTests('metered-page');
const admin = appUser('metered-page-admin', 'admin');
const alice = appUser('metered-page-alice', 'member');
const bob = appUser('metered-page-bob', 'member');
const posts = findEndpoint('posts')!;
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}</p>`;
const ALLOWANCE = 2;
/** Members' posts only a paid plan opens (the three newest, made last, are the free plan's). */
const PAID_ONLY = ['mp-0', 'mp-1', 'mp-2', 'mp-3'];
const make = (id: string, minutes: number, isPublicPreview = false) =>
  createContent(database.db, posts, {
    id,
    status: 'publish',
    body: {
      title: `記事 ${id}`,
      body,
      isPublicPreview,
      publishedAt: new Date(Date.UTC(2026, 10, 27, 0, minutes)).toISOString(),
    },
  });

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const LOAD = { 'sec-fetch-dest': 'document' };
const RSC = { rsc: '1' };
const PREFETCH = { rsc: '1', 'next-router-prefetch': '1' };
const req = (id: string, headers: IncomingHttpHeaders = LOAD, method = 'GET') =>
  ({
    method,
    url: `/posts/${id}`,
    headers: { 'user-agent': CHROME, ...headers },
  }) as IncomingMessage;
const open = (who: { id: string }, id: string, headers?: IncomingHttpHeaders, method?: string) =>
  meteredPage(req(id, headers, method), who.id, { refresh: false });

const readsOf = async (who: { id: string }, contentId?: string) =>
  (
    await database.db
      .select({ n: count() })
      .from(meteredReads)
      .where(
        and(
          eq(meteredReads.userId, who.id),
          contentId ? eq(meteredReads.contentId, contentId) : undefined,
        ),
      )
  )[0]!.n;

beforeAll(async () => {
  for (const who of [admin, alice, bob]) await addUser(database, who);
  state.site = createSiteContent({ db: database.db });
  for (const [n, id] of PAID_ONLY.entries()) await make(id, n);
  await make('mp-public', 10, true);
  for (const n of [1, 2, 3]) await make(`mp-free-${n}`, 20 + n);
});
afterAll(() => state.site?.dispose());
beforeEach(async () => {
  await database.db.delete(meteredReads);
  forgetMeteredReads();
  await setMeteredAllowance(database.db, ALLOWANCE, { actor: `user:${admin.id}`, ip: null });
});

describe('the meter before the cache', () => {
  it('a page load opens the metered entry only after a read of that post by that reader', async () => {
    expect(await open(alice, 'mp-0')).toMatchObject({
      entry: 'metered',
      contentId: 'mp-0',
      perMonth: ALLOWANCE,
      left: 1,
    });
    expect(await readsOf(alice, 'mp-0')).toBe(1);
    // Alice's read opens nothing for Bob: his own look gets the paywall and spends nothing.
    expect(await open(bob, 'mp-0', RSC)).toMatchObject({
      entry: 'paywall',
      contentId: 'mp-0',
      perMonth: ALLOWANCE,
      left: ALLOWANCE,
    });
    expect(await readsOf(bob)).toBe(0);
    // Nor for another post of Alice's.
    expect((await open(alice, 'mp-1', RSC))?.entry).toBe('paywall');
  });

  it('prefetches, RSC requests, HEAD, bots and the refresh insert nothing; a re-read opens', async () => {
    for (const headers of [RSC, PREFETCH, { 'user-agent': 'Googlebot/2.1', ...LOAD }])
      expect((await open(alice, 'mp-1', headers))?.entry).toBe('paywall');
    expect((await open(alice, 'mp-1', LOAD, 'HEAD'))?.entry).toBe('paywall');
    const refresh = await meteredPage(req('mp-1'), alice.id, { refresh: true });
    expect(refresh?.entry).toBe('paywall');
    expect(await readsOf(alice)).toBe(0);
    // Read once by a page load: a prefetch or a navigation then re-reads it, free.
    expect((await open(alice, 'mp-1'))?.entry).toBe('metered');
    for (const headers of [RSC, PREFETCH, LOAD])
      expect(await open(alice, 'mp-1', headers)).toMatchObject({ entry: 'metered', left: 1 });
    expect(await readsOf(alice)).toBe(1);
  });

  it('used up: the paywall with none left; ten page loads at once open at most the allowance', async () => {
    const ids = [...PAID_ONLY, ...PAID_ONLY, 'mp-0', 'mp-1'];
    const pages = await Promise.all(ids.map((id) => open(bob, id)));
    const opened = new Set(
      pages.flatMap((page) => (page?.entry === 'metered' ? [page.contentId] : [])),
    );
    expect(opened.size).toBe(ALLOWANCE);
    expect(await readsOf(bob)).toBe(ALLOWANCE);
    const closed = PAID_ONLY.find((id) => !opened.has(id))!;
    expect(await open(bob, closed)).toMatchObject({
      entry: 'paywall',
      contentId: closed,
      perMonth: ALLOWANCE,
      left: 0,
    });
  });

  it('what this process has seen never closes a post another instance opened', async () => {
    expect((await open(alice, 'mp-0'))?.entry).toBe('metered'); // seen here: one read
    // Another instance's read of mp-1, written straight to the database.
    const gate = await postGate('mp-1');
    if (gate.kind !== 'paid-only') throw new Error('mp-1 is a paid-only post');
    const createdAt = new Date(gate.post.createdAt);
    const month = japanMonthKey(new Date());
    await database.db.insert(meteredReads).values({
      userId: alice.id,
      month,
      contentId: 'mp-1',
      contentCreatedAt: createdAt,
      readAt: new Date(),
    });
    expect(await open(alice, 'mp-1', RSC)).toMatchObject({ entry: 'metered', left: 0 });
    // Used up, as the database says: no third read.
    expect(await open(alice, 'mp-2')).toMatchObject({ entry: 'paywall', left: 0 });
    expect(await readsOf(alice)).toBe(ALLOWANCE);
  });

  it('a public or free-plan post is the free members’ page as before, the meter not asked', async () => {
    expect(await open(alice, 'mp-public')).toEqual({ entry: 'member' });
    expect(await open(alice, 'mp-free-3')).toEqual({ entry: 'member' });
    expect(await readsOf(alice)).toBe(0);
  });

  it('no such post, or a page under a post, is rendered per request (no cache)', async () => {
    expect(await open(alice, 'mp-nothing')).toBeNull();
    const gift = { method: 'GET', url: '/posts/mp-0/gift', headers: LOAD } as IncomingMessage;
    expect(await meteredPage(gift, alice.id, { refresh: false })).toBeNull();
    expect(await readsOf(alice)).toBe(0);
  });

  it('the wall off (0): as before it, nothing asked', async () => {
    await setMeteredAllowance(database.db, 0, { actor: `user:${admin.id}`, ip: null });
    expect(await open(alice, 'mp-2')).toEqual({ entry: 'member' });
    expect(await readsOf(alice)).toBe(0);
  });

  it('a read of a deleted post that had this id, or of another month, opens nothing', async () => {
    const row = { userId: alice.id, contentId: 'mp-3', readAt: new Date() };
    const month = japanMonthKey(new Date());
    await database.db.insert(meteredReads).values([
      // The same id, created at another time: another post (decision 055, as gifts).
      { ...row, month, contentCreatedAt: new Date('2020-01-01T00:00:00Z') },
      { ...row, month: '2020-01', contentCreatedAt: new Date() },
    ]);
    expect(await open(alice, 'mp-3', RSC)).toMatchObject({ entry: 'paywall' });
    expect(await readsOf(alice, 'mp-3')).toBe(2);
    await deleteContent(database.db, posts, 'mp-3');
    expect(await open(alice, 'mp-3')).toBeNull();
  });
});
