import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { GIFT_ALLOWANCE_SPENT, GIFT_LIFETIME_MS } from '@/lib/gifts/gift-link';
import type { PageTestState } from '@test-support/site-content-mock';
import { openRenderRecord } from '@/server/features/audience/render-record';
import { inRequest } from '@/server/platform/http/request-context';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { movedLocation } from '@/server/services/cms/redirects';
import { renameContent } from '@/server/services/cms/rename';
import { createSiteContent } from '@/server/features/content/site-content';
import { cmsContents, user } from '@/server/platform/db/schema';
import { grantComplimentary, revokeComplimentary } from '@/server/features/profiles/subscriptions';
import { searchSite } from '@/server/features/search/site-search';
import { feedResponse } from '@/server/features/seo/feed';
import {
  addUser,
  auditsOf,
  doneFlash,
  flashOf,
  formPost,
  roleRouteTests,
  appUser,
} from '@test-support/route-tests';
import { createContent, deleteContent } from '@/server/services/cms/writes';

/**
 * The attack tests of gift links (docs/decisions/037-gift-articles.md), on the service, the
 * route that makes them and the reader the post page reads through: guessing, tampering,
 * expiry on an injected clock, the giver's plan ending, the monthly allowance in Japan time,
 * who may give, the audit record, and that feeds and search know nothing of gifts. The front
 * server's part (no cache, no-store) is src/server/features/front/gift-answer.test.ts and the e2e test.
 */

const state = vi.hoisted((): PageTestState => ({
  viewer: { kind: 'anonymous' },
  site: undefined,
}));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () => Promise.resolve({ get: () => undefined }),
}));
vi.mock('@/server/features/access/current-viewer', async () =>
  (await import('@test-support/site-content-mock')).currentViewerFromState(state),
);
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);

const { createGift, findGift, giftAllowance, newGiftToken } = await import('./gifts');
const { giftsHandlers, NEW_GIFT_URL_VALUE } = await import('./gifts-http');
const { readPost } = await import('@/server/features/access/read');

const { database } = roleRouteTests('gifts');
const giver = appUser('gift-giver', 'member', '贈る人');
const other = appUser('gift-other', 'member');
const free = appUser('gift-free', 'member');
const editor = appUser('gift-editor', 'editor');
/** Gives on today's clock (the page reader's), in a month the others' gifts do not fill. */
const today = appUser('gift-today', 'member', '今日の贈り主');
const people = { giver, other, free, editor, today };

/** 2026-11-10 12:00 JST. */
const NOW = new Date('2026-11-10T03:00:00Z');
const A = 'gift-post-a';
const B = 'gift-post-b';
const OPEN = 'gift-post-open';
const SECRET = 'ギフトノヒミツ';
/** Their `createdAt` as stored, filled in when they are made. */
const postA = { id: A, isPublicPreview: false, createdAt: '' };
const postB = { id: B, isPublicPreview: false, createdAt: '' };
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}${SECRET}</p>`;
const LIMIT = 5;

/** A post as the content service has it: what a gift is bound to. */
async function postOf(id: string) {
  const [row] = await database.db
    .select({ createdAt: cmsContents.createdAt })
    .from(cmsContents)
    .where(eq(cmsContents.id, id));
  return { id, isPublicPreview: false, createdAt: row!.createdAt.toISOString() };
}

const make = (who = giver, post = postA, now = NOW) =>
  createGift(database.db, { giver: who, post, now, limit: LIMIT });

async function madeToken(post = postA, now = NOW, who = giver): Promise<string> {
  const made = await make(who, post, now);
  if (!made.ok) throw new Error(made.message);
  return made.token;
}

beforeAll(async () => {
  for (const who of Object.values(people)) await addUser(database, who);
  for (const who of [giver, other, today]) {
    await grantComplimentary(database.db, { userId: who.id, planName: '月額', status: 'active' });
  }
  state.site = createSiteContent({ db: database.db });
  const posts = findEndpoint('posts')!;
  for (const [id, open] of [
    [A, false],
    [B, false],
    [OPEN, true],
  ] as const) {
    await createContent(database.db, posts, {
      id,
      status: 'publish',
      body: {
        title: `記事${id}`,
        body: open ? '<p>誰でも読める。</p>' : body,
        isPublicPreview: open,
        publishedAt: NOW.toISOString(),
      },
    });
  }
  postA.createdAt = (await postOf(A)).createdAt;
  postB.createdAt = (await postOf(B)).createdAt;
  // Three newer members' posts: the free plan (the 3 newest) leaves A and B paid only.
  for (const n of [1, 2, 3]) {
    await createContent(database.db, posts, {
      id: `gift-newer-${n}`,
      status: 'publish',
      body: {
        title: `新しい記事${n}`,
        body: '<p>本文。</p>',
        isPublicPreview: false,
        publishedAt: new Date(NOW.getTime() + n * 60_000).toISOString(),
      },
    });
  }
  return () => state.site?.dispose();
});

describe('who may give', () => {
  it('a paid reader, of a members’ post; not a free member, staff, or an open post', async () => {
    expect((await make()).ok).toBe(true);
    expect(await make(free)).toMatchObject({ ok: false, reason: 'not-paid' });
    expect(await make(editor)).toMatchObject({ ok: false, reason: 'not-paid' });
    expect(
      await make(giver, { id: OPEN, isPublicPreview: true, createdAt: NOW.toISOString() }),
    ).toMatchObject({
      ok: false,
      reason: 'not-giftable',
    });
  });
});

describe('a gift link opens its one post, and nothing else does', () => {
  it('the token opens the post it was made for', async () => {
    const token = await madeToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await findGift(database.db, token, postA, NOW)).toMatchObject({
      contentId: A,
      giverName: '贈る人',
      expiresAt: new Date(NOW.getTime() + GIFT_LIFETIME_MS),
    });
  });

  it('guessing: random tokens of the right shape open nothing', async () => {
    await madeToken();
    for (let i = 0; i < 20; i++)
      expect(await findGift(database.db, newGiftToken(), postA, NOW)).toBeNull();
    for (const junk of [
      '',
      'a',
      randomBytes(32).toString('hex'),
      '../../etc/passwd',
      'x'.repeat(5000),
    ])
      expect(await findGift(database.db, junk, postA, NOW)).toBeNull();
  });

  it('tampering: another post, truncated, extended, case-changed or encoded tokens', async () => {
    const token = await madeToken();
    expect(await findGift(database.db, token, postB, NOW)).toBeNull();
    // The same id on an item created at another time (made after this one was deleted).
    const later = new Date(Date.parse(postA.createdAt) + 1).toISOString();
    expect(await findGift(database.db, token, { id: A, createdAt: later }, NOW)).toBeNull();
    const flipped = token.replace(/[a-z]/, (c) => c.toUpperCase());
    const variants = [
      token.slice(0, -1),
      `${token}A`,
      `${token}=`,
      ` ${token}`,
      token.toUpperCase(),
      token.toLowerCase(),
      encodeURIComponent(token).replace(/-/g, '%2D'),
    ];
    if (flipped !== token) variants.push(flipped);
    for (const variant of variants.filter((v) => v !== token))
      expect(await findGift(database.db, variant, postA, NOW), variant).toBeNull();
  });

  it('expiry: open until 7 days after it was made, then never', async () => {
    const token = await madeToken();
    const end = NOW.getTime() + GIFT_LIFETIME_MS;
    expect(await findGift(database.db, token, postA, new Date(end - 1))).not.toBeNull();
    expect(await findGift(database.db, token, postA, new Date(end))).toBeNull();
    expect(await findGift(database.db, token, postA, new Date(end + 86_400_000))).toBeNull();
  });

  it('the giver’s plan ending keeps the gift; the giver’s account going removes it', async () => {
    const leaver = appUser('gift-leaver', 'member');
    await addUser(database, leaver);
    await grantComplimentary(database.db, {
      userId: leaver.id,
      planName: '月額',
      status: 'active',
    });
    const token = await madeToken(postA, NOW, leaver);
    await revokeComplimentary(database.db, leaver.id);
    expect(await findGift(database.db, token, postA, NOW)).not.toBeNull();
    // No new gifts once the plan has ended.
    expect(await make(leaver)).toMatchObject({ ok: false, reason: 'not-paid' });
    await database.db.delete(user).where(eq(user.id, leaver.id));
    expect(await findGift(database.db, token, postA, NOW)).toBeNull();
  });
});

describe('the monthly allowance, in Japan time', () => {
  it('five a month; the sixth is refused in Japanese; the 1st (JST) starts anew', async () => {
    // 2027-01-31 23:59:59 JST, then 2027-02-01 00:00 JST.
    const lastSecond = new Date('2027-01-31T14:59:59Z');
    const nextMonth = new Date('2027-01-31T15:00:00Z');
    for (let i = 0; i < LIMIT; i++) {
      const made = await make(other, postA, lastSecond);
      expect(made).toMatchObject({ ok: true, left: LIMIT - i - 1 });
    }
    expect(await make(other, postB, lastSecond)).toEqual({
      ok: false,
      reason: 'allowance-spent',
      message: GIFT_ALLOWANCE_SPENT,
    });
    expect(await giftAllowance(database.db, other.id, { now: lastSecond, limit: LIMIT })).toEqual({
      used: LIMIT,
      left: 0,
    });
    expect(await giftAllowance(database.db, other.id, { now: nextMonth, limit: LIMIT })).toEqual({
      used: 0,
      left: LIMIT,
    });
    expect((await make(other, postB, nextMonth)).ok).toBe(true);
  });

  it('two gifts at once cannot both take the last one', async () => {
    const at = new Date('2027-03-15T03:00:00Z');
    for (let i = 0; i < LIMIT - 1; i++) expect((await make(other, postA, at)).ok).toBe(true);
    const both = await Promise.all([make(other, postA, at), make(other, postB, at)]);
    expect(both.filter((made) => made.ok)).toHaveLength(1);
  });
});

describe('POST /api/gifts', () => {
  const routes = giftsHandlers({
    viewer: (headers) => {
      const who = headers.get('x-test-viewer') as keyof typeof people | null;
      return Promise.resolve(who ? people[who] : null);
    },
    findPost: (id) => Promise.resolve([postA, postB].find((p) => p.id === id) ?? null),
    now: () => new Date('2027-05-10T03:00:00Z'),
  });
  const post = (who: keyof typeof people | null, postId: string, plain = true) =>
    routes.create(
      formPost('/api/gifts', { who, fields: { postId }, plain, referer: `/posts/${postId}/gift` }),
    );

  it('a plain post makes the link, shows it once on the gift page, and audits it', async () => {
    const response = await post('giver', A);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/posts/${A}/gift`);
    expect(doneFlash(response)).toBe('ギフトリンクを作成しました。今月あと4本贈れます。');
    const url = new URL(String(flashOf(response)?.values[NEW_GIFT_URL_VALUE]));
    expect(url.pathname).toBe(`/posts/${A}`);
    const token = url.searchParams.get('gift')!;
    expect(
      await findGift(database.db, token, postA, new Date('2027-05-10T03:00:00Z')),
    ).not.toBeNull();
    const [audit] = await auditsOf(database, 'gift-created', `posts:${A}`);
    expect(audit).toMatchObject({ actor: `user:${giver.id}` });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('refuses a free member, a signed-out visitor, an unknown post and a bad id', async () => {
    const refused = await post('free', A, false);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: 'ギフトは有料会員の方だけが贈れます。' });
    expect((await post(null, A, false)).status).toBe(401);
    expect((await post('giver', 'no-such-post', false)).status).toBe(404);
    expect((await post('giver', '../x', false)).status).toBe(400);
  });
});

describe('the post page’s reader', () => {
  it('opens the post for an anonymous holder of the link, as a personal render', async () => {
    const token = await madeToken(postA, new Date(), today);
    state.viewer = { kind: 'anonymous' };
    const request = { requestId: 'gift' };
    const render = openRenderRecord(request);
    const read = await inRequest(request, () => readPost(A, token));
    expect(read).toMatchObject({ full: true, gift: { contentId: A, giverName: '今日の贈り主' } });
    expect(read?.item.body).toContain(SECRET);
    // Never filed under an audience (src/server/features/audience/render-record.ts).
    expect(render.personal).toBe(true);
  });

  it('a token for another post, a forged one or a malformed one leaves the paywall', async () => {
    const tokenB = await madeToken(postB, new Date(), today);
    state.viewer = { kind: 'member', paid: false };
    for (const token of [tokenB, newGiftToken(), null]) {
      const read = await readPost(A, token);
      expect(read).toMatchObject({ full: false, giftRefused: true });
      expect(JSON.stringify(read)).not.toContain(SECRET);
    }
    expect(await readPost(A)).not.toHaveProperty('giftRefused');
  });

  it('a gift follows its post through a rename, and an old id opens nothing', async () => {
    const posts = findEndpoint('posts')!;
    const members = (title: string) => ({ title, body, isPublicPreview: false });
    const publish = (id: string, title: string) =>
      createContent(database.db, posts, { id, status: 'publish', body: members(title) });
    const opens = async (id: string, token: string) => (await readPost(id, token))?.full;
    state.viewer = { kind: 'anonymous' };

    await publish('gift-before', '改名される記事');
    const renamedToken = await madeToken(await postOf('gift-before'), new Date(), today);
    await renameContent(database.db, posts, 'gift-before', 'gift-after', { actor: 'system' });
    // The old link answers 301 with its query, and opens the renamed post for its recipient.
    expect(await movedLocation(database.db, '/posts/gift-before', `?gift=${renamedToken}`)).toBe(
      `/posts/gift-after?gift=${renamedToken}`,
    );
    expect(await readPost('gift-after', renamedToken)).toMatchObject({
      full: true,
      gift: { contentId: 'gift-after' },
    });

    // Deleted, its id and its old id given to new posts: the gift opens neither.
    await deleteContent(database.db, posts, 'gift-after');
    await publish('gift-before', '別の記事 (旧 ID)');
    await publish('gift-after', '別の記事 (同じ ID)');
    expect(await opens('gift-before', renamedToken)).toBe(false);
    expect(await opens('gift-after', renamedToken)).toBe(false);

    await publish('gift-gone', '削除される記事');
    const deletedToken = await madeToken(await postOf('gift-gone'), new Date(), today);
    await deleteContent(database.db, posts, 'gift-gone');
    await publish('gift-gone', '同じ ID の新しい記事');
    const read = await readPost('gift-gone', deletedToken);
    expect(read).toMatchObject({ full: false, giftRefused: true });
    expect(JSON.stringify(read)).not.toContain(SECRET);
  });

  it('search and the feed know nothing of gifts', async () => {
    await madeToken(postA, new Date(), today);
    const source = { client: state.site!.client, db: database.db };
    const results = await searchSite(
      source,
      { q: SECRET, type: 'all', page: 1 },
      {
        kind: 'anonymous',
      },
    );
    expect(results.hits.map((h) => h.id)).not.toContain(A);
    const feed = await (
      await feedResponse(state.site!.client, { siteUrl: 'https://axis.example.jp', siteName: 'A' })
    ).text();
    expect(feed).toContain(`/posts/${A}`);
    expect(feed).not.toContain(SECRET);
  });
});
