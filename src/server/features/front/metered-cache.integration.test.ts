import { type TestFrontServer, startFrontServer } from '@test-support/front-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { renderToReadableStream } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { SiteContent } from '@/server/features/content/site-content';
import { createSiteContent } from '@/server/features/content/site-content';
import { createContent, deleteContent } from '@/server/services/cms/writes';
import { meteredReads } from '@/server/platform/db/schema';
import { currentRequest } from '@/server/platform/http/request-context';
import { runAdminCommand } from '@/server/features/admin/commands';
import { signIn } from '@/server/features/account/account-flows';
import { appAuth } from '@/server/features/identity/app-auth';
import { forgetMeteredReads, setMeteredAllowance } from '@/server/features/metered';
import { testDatabase } from '@test-support/route-tests';
import { webHeaders } from './node-bridge';
import { PageCache, pageKey } from './page-cache';
import { postPageId } from './reader-opens';

/**
 * The attack tests of the metered wall's cached path (docs/decisions/055-metered-wall.md,
 * amendment "metered reads from the cache"), on the real pipeline, page cache, sessions,
 * database and post page: the framework is stood in for by a render of the real post page in
 * the request's own context. A metered read is served from the `metered` entry only after the
 * database holds that reader's read of that post this month; the count is the database's, never
 * a cookie's; prefetches, RSC requests and HEAD spend nothing; the members' part never reaches
 * an entry another reader (a visitor, a free member without the read) can be served.
 */

const state = vi.hoisted(() => ({
  site: undefined as SiteContent | undefined,
  /** The request headers of each render, by its request's context (next/headers reads them). */
  headers: new WeakMap<object, Headers>(),
}));
vi.mock('next/headers', async () => {
  const { currentRequest: current } = await import('@/server/platform/http/request-context');
  return {
    headers: () => Promise.resolve(state.headers.get(current() ?? {}) ?? new Headers()),
    cookies: () => Promise.resolve({ get: () => undefined }),
  };
});
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);
// A client island that needs a mounted router; what it shows is not what is checked here.
vi.mock('@/components/bookmarks/bookmark-button.client', () => ({ BookmarkButton: () => null }));
const { default: PostPage } = await import('@/app/posts/[contentId]/page');

const database = testDatabase();
const SECRET = 'メーターキャッシュノヒミツ';
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}${SECRET}</p>`;
const ALLOWANCE = 2;
/** Members' posts only a paid plan opens (the three newest, made last, are the free plan's). */
const PAID_ONLY = ['mc-0', 'mc-1', 'mc-2', 'mc-3', 'mc-4'];
const PASSWORD = 'kumo-no-ue-no-sora';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const LOAD = { 'sec-fetch-dest': 'document' };
const RSC = { rsc: '1' };
const PREFETCH = { rsc: '1', 'next-router-prefetch': '1' };
const SEGMENT = { rsc: '1', 'next-router-segment-prefetch': '/_tree' };

/** The framework, stood in for: the real post page rendered in the request's own context. */
async function framework(req: IncomingMessage, res: ServerResponse): Promise<void> {
  state.headers.set(currentRequest()!, webHeaders(req));
  const contentId = postPageId(req.url ?? '/') ?? '';
  let html: string;
  try {
    const element = await PostPage({ params: Promise.resolve({ contentId }) });
    const stream = await renderToReadableStream(element);
    await stream.allReady;
    html = await new Response(stream).text();
  } catch {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<p>見つかりません</p>');
    return;
  }
  res.setHeader('content-type', req.headers.rsc ? 'text/x-component' : 'text/html; charset=utf-8');
  res.end(html);
}

const pages = new PageCache();
let front: TestFrontServer | undefined;
let base = '';

/** A browser: its session cookie, and the audience cookie the server last set. */
class Reader {
  audience = '';
  constructor(
    readonly name: string,
    readonly session: string,
    readonly id: string,
  ) {}

  async get(id: string, headers: Record<string, string> = LOAD, method = 'GET') {
    const cookie = [this.session, this.audience].filter(Boolean).join('; ');
    const answer = await fetch(`${base}/posts/${id}`, {
      method,
      headers: { 'user-agent': CHROME, cookie, ...headers },
    });
    const set = answer.headers.get('set-cookie');
    if (set?.startsWith('axis_audience=')) this.audience = set.split(';')[0]!;
    return {
      status: answer.status,
      cache: answer.headers.get('x-page-cache'),
      html: await answer.text(),
    };
  }
}

const readers = new Map<string, Reader>();
const reader = (name: string) => readers.get(name)!;
const run = (name: string, args: Record<string, string>) =>
  runAdminCommand({ database, actor: 'cli:test' }, name, args);

async function signedIn(name: string, ip: number): Promise<Reader> {
  const email = `${name}@example.jp`;
  await run('create-user', { email, password: PASSWORD, role: 'member' });
  const result = await signIn(
    { db: database.db, auth: await appAuth() },
    { email, password: PASSWORD },
    { headers: new Headers(), ip: `192.0.2.${ip}` },
  );
  if (!result.ok) throw new Error(`sign-in failed for ${email}`);
  const session = result.setCookies!.map((c) => c.split(';')[0]).join('; ');
  const row = await database.db.query.user.findFirst({
    where: (u, { eq: is }) => is(u.email, email),
  });
  return new Reader(name, session, row!.id);
}

const readsOf = async (who: Reader, contentId?: string) =>
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

/** Every entry the cache holds for a post's document and RSC keys under the shared audiences. */
function sharedEntries(id: string): string[] {
  const bodies: string[] = [];
  for (const headers of [{}, RSC, PREFETCH, SEGMENT])
    for (const audience of ['anonymous', 'member', 'paid'] as const) {
      const req = { url: `/posts/${id}`, headers } as unknown as IncomingMessage;
      const found = pages.find(pageKey(req, audience), undefined);
      if (found) bodies.push(found.page.body.toString());
    }
  return bodies;
}

beforeAll(async () => {
  vi.stubEnv('APP_SECRET', 's'.repeat(40));
  state.site = createSiteContent({ db: database.db });
  const posts = findEndpoint('posts')!;
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
  for (const [n, id] of PAID_ONLY.entries()) await make(id, n);
  for (const n of [1, 2, 3]) await make(`mc-free-${n}`, 20 + n);
  let ip = 40;
  for (const name of ['alice', 'bob', 'carol', 'dave'])
    readers.set(name, await signedIn(name, ++ip));

  front = await startFrontServer(framework, pages);
  base = front.base;
});
afterAll(async () => {
  await front?.stop();
  state.site?.dispose();
  vi.unstubAllEnvs();
});
beforeEach(async () => {
  pages.clear();
  await database.db.delete(meteredReads);
  forgetMeteredReads();
  await setMeteredAllowance(database.db, ALLOWANCE, { actor: 'user:test', ip: null });
});

describe('a metered read from the cache', () => {
  it('is served from the metered entry only after that very reader’s read of that very post', async () => {
    const [alice, bob] = [reader('alice'), reader('bob')];
    const first = await alice.get('mc-0');
    expect(first.html).toContain(SECRET);
    expect(first.html).toContain('今月あと1本読めます');
    expect(first.cache).toBeNull(); // rendered, and kept for the next metered reader
    const again = await alice.get('mc-0');
    expect(again).toMatchObject({ cache: 'hit' });
    expect(again.html).toContain(SECRET);
    expect(await readsOf(alice)).toBe(1);

    // Bob has no read of it: his navigation, prefetches and HEAD get the paywall, spend nothing.
    for (const headers of [RSC, PREFETCH, SEGMENT]) {
      const look = await bob.get('mc-0', headers);
      expect(look.html).not.toContain(SECRET);
      expect(look.html).toContain('今月あと2本読めます');
    }
    expect((await bob.get('mc-0', LOAD, 'HEAD')).status).toBe(200);
    expect(await readsOf(bob)).toBe(0);
    // His own page load spends his read, and is then served what Alice's render left.
    const his = await bob.get('mc-0');
    expect(his).toMatchObject({ cache: 'hit' });
    expect(his.html).toContain(SECRET);
    expect(await readsOf(bob, 'mc-0')).toBe(1);
  });

  it('never files the members’ part under an entry a visitor or another free member is served', async () => {
    const [alice, carol] = [reader('alice'), reader('carol')];
    for (const headers of [LOAD, RSC, PREFETCH, SEGMENT]) await alice.get('mc-1', headers);
    await alice.get('mc-1');
    expect(await readsOf(alice, 'mc-1')).toBe(1);
    for (const entry of sharedEntries('mc-1')) expect(entry).not.toContain(SECRET);
    // Carol, without a read, and a visitor, with every kind of request: never the members' part.
    for (const headers of [RSC, PREFETCH, SEGMENT]) {
      expect((await carol.get('mc-1', headers)).html).not.toContain(SECRET);
      const visitor = await fetch(`${base}/posts/mc-1`, {
        headers: { 'user-agent': CHROME, ...headers },
      });
      expect(await visitor.text()).not.toContain(SECRET);
    }
    const visitor = await fetch(`${base}/posts/mc-1`, {
      headers: { 'user-agent': CHROME, ...LOAD },
    });
    const page = await visitor.text();
    expect(page).not.toContain(SECRET);
    expect(page).toContain('会員限定の記事を毎月2本まで全文お読みいただけます');
    expect(await readsOf(carol)).toBe(0);
    for (const entry of sharedEntries('mc-1')) expect(entry).not.toContain(SECRET);
  });

  it('a re-read by an RSC request or a prefetch is served the metered entry; an unread post the paywall', async () => {
    const alice = reader('alice');
    await alice.get('mc-2');
    for (const headers of [RSC, PREFETCH]) {
      expect((await alice.get('mc-2', headers)).html).toContain(SECRET);
      expect((await alice.get('mc-3', headers)).html).not.toContain(SECRET);
    }
    expect(await readsOf(alice)).toBe(1);
  });

  it('used up: the paywall from the cache, with when the allowance comes back', async () => {
    const dave = reader('dave');
    await dave.get('mc-0');
    await dave.get('mc-1');
    const spent = await dave.get('mc-2');
    expect(spent.html).not.toContain(SECRET);
    expect(spent.html).toContain('来月1日（日本時間）に2本読めるようになります');
    expect((await dave.get('mc-2')).cache).toBe('hit');
    expect(await readsOf(dave)).toBe(ALLOWANCE);
  });
});

describe('the count is the database’s, never a cookie’s', () => {
  it('a replayed, swapped or altered audience cookie meters its own session’s reader', async () => {
    const [alice, bob, carol] = [reader('alice'), reader('bob'), reader('carol')];
    await carol.get('mc-free-1'); // a signed audience cookie, before any read
    const before = carol.audience;
    expect(before).toMatch(/^axis_audience=member:/);
    await carol.get('mc-0');
    await carol.get('mc-1');
    // Her cookie from before her reads, replayed: still used up.
    carol.audience = before;
    expect((await carol.get('mc-2')).html).not.toContain(SECRET);
    // Her cookie dropped: the database asked, still used up.
    carol.audience = '';
    expect((await carol.get('mc-2')).html).not.toContain(SECRET);
    expect(await readsOf(carol)).toBe(ALLOWANCE);

    // Carol's session with Alice's audience cookie (bound to Alice's session): Carol's meter.
    await alice.get('mc-free-1');
    carol.audience = alice.audience;
    expect((await carol.get('mc-3')).html).not.toContain(SECRET);
    // Altered to name Bob (or the paid audience): refused, Carol's own meter again.
    const [name, value] = before.split('=') as [string, string];
    for (const forged of [value.replace(carol.id, bob.id), value.replace(/^member/, 'paid')]) {
      carol.audience = `${name}=${forged}`;
      expect((await carol.get('mc-3')).html).not.toContain(SECRET);
    }
    expect(await readsOf(carol)).toBe(ALLOWANCE);
    expect(await readsOf(bob)).toBe(0);
  });
});

describe('a change between the meter and the send', () => {
  it('a deleted post’s metered entry is dropped at once: no members’ text after the change', async () => {
    const alice = reader('alice');
    expect((await alice.get('mc-4')).html).toContain(SECRET);
    await deleteContent(database.db, findEndpoint('posts')!, 'mc-4');
    const after = await alice.get('mc-4');
    expect(after.status).toBe(404);
    expect(after.html).not.toContain(SECRET);
  });

  it('the wall off: a free member gets the paywall as before it, nothing spent', async () => {
    const bob = reader('bob');
    await setMeteredAllowance(database.db, 0, { actor: 'user:test', ip: null });
    const page = await bob.get('mc-3');
    expect(page.html).not.toContain(SECRET);
    expect(page.html).not.toContain('今月あと');
    expect((await bob.get('mc-3')).cache).toBe('hit');
    expect(await readsOf(bob)).toBe(0);
  });
});
