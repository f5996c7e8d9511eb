import { type TestFrontServer, startFrontServer } from '@test-support/front-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { renderToReadableStream, renderToStaticMarkup } from 'react-dom/server';
import type * as SessionUserModule from '@/server/features/identity/session-user';
import type { AppUser } from '@/server/features/identity/session-user';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { SiteContent } from '@/server/features/content/site-content';
import { createSiteContent } from '@/server/features/content/site-content';
import { createContent } from '@/server/services/cms/writes';
import {
  auditEvents,
  commentDigests,
  commentReports,
  comments,
  mailOutbox,
  rateLimitHits,
} from '@/server/platform/db/schema';
import { currentRequest } from '@/server/platform/http/request-context';
import { grantComplimentary } from '@/server/features/profiles/subscriptions';
import { runAdminCommand } from '@/server/features/admin/commands';
import { signIn } from '@/server/features/account/account-flows';
import { editProfile } from '@/server/features/account/profile-flow';
import { appAuth } from '@/server/features/identity/app-auth';
import {
  type PostOptions,
  TEST_VIEWER_HEADER,
  addUser,
  appUser,
  formPost,
  flashOf,
  testDatabase,
  testViewer,
} from '@test-support/route-tests';
import { webHeaders } from '@/server/features/front/node-bridge';
import { PageCache, pageKey } from '@/server/features/front/page-cache';
import {
  type CommentsHttpDeps,
  handleCommentAction,
  handleCommentCreate,
  handleCommentsGet,
  listItemComments,
  moderationHandler,
  purgeItems,
  sendCommentDigests,
  settingsHandler,
} from './index';

/**
 * The attack tests of comments (docs/decisions/061-comments.md), on the real database, content
 * service, access policy, route handlers, front server, page cache and post page (the framework
 * stood in for by a render of the real page in the request's own context, as in
 * src/server/features/front/metered-cache.integration.test.ts).
 */

const state = vi.hoisted(() => ({
  site: undefined as SiteContent | undefined,
  /** Who the console page is rendered for (the pages fetched over HTTP are a visitor's). */
  user: null as AppUser | null,
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
vi.mock('@/server/features/identity/session-user', async (importOriginal) => {
  const original = await importOriginal<typeof SessionUserModule>();
  return {
    ...original,
    userFromHeaders: (headers: Headers) =>
      state.user ? Promise.resolve(state.user) : original.userFromHeaders(headers),
  };
});
vi.mock('@/components/bookmarks/bookmark-button.client', () => ({ BookmarkButton: () => null }));
const { default: PostPage } = await import('@/app/posts/[contentId]/page');
const { default: AdminCommentsPage } = await import('@/app/admin/comments/page');

const database = testDatabase();
const SECRET = 'コメントテストノカイインゲンテイ';
const users = {
  paid: appUser('c-paid', 'member', '有料の読者'),
  paid2: appUser('c-paid2', 'member', 'もう一人の有料読者'),
  free: appUser('c-free', 'member', '無料の読者'),
  troll: appUser('c-troll', 'member', '荒らし'),
  editor: appUser('c-editor', 'editor', '編集者'),
  admin: appUser('c-admin', 'admin', '管理者'),
};
type Who = keyof typeof users;
const deps: CommentsHttpDeps = {
  db: () => Promise.resolve(database.db),
  currentUser: testViewer(users),
};

/** The framework, stood in for: the real post page rendered in the request's own context. */
async function framework(req: IncomingMessage, res: ServerResponse): Promise<void> {
  state.headers.set(currentRequest()!, webHeaders(req));
  const contentId = (req.url ?? '/').split('?')[0]!.split('/')[2] ?? '';
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
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(html);
}

const pages = new PageCache();
let front: TestFrontServer | undefined;
let base = '';

/** A signed-out visitor's page load. */
async function visit(id: string) {
  const answer = await fetch(`${base}/posts/${id}`, {
    headers: { 'user-agent': 'Mozilla/5.0 Chrome/131.0', 'sec-fetch-dest': 'document' },
  });
  return { cache: answer.headers.get('x-page-cache'), html: await answer.text() };
}

/** A paid reader's browser: a real session, and the audience cookie the server last set. */
async function paidBrowser() {
  const email = 'paid-browser@example.jp';
  const password = 'kumo-no-ue-no-sora';
  await runAdminCommand({ database, actor: 'cli:test' }, 'create-user', {
    email,
    password,
    role: 'member',
  });
  const row = await database.db.query.user.findFirst({
    where: (u, { eq: is }) => is(u.email, email),
  });
  await grantComplimentary(database.db, { userId: row!.id, planName: 'monthly', status: 'active' });
  const result = await signIn(
    { db: database.db, auth: await appAuth() },
    { email, password },
    { headers: new Headers(), ip: '192.0.2.77' },
  );
  if (!result.ok) throw new Error('sign-in failed');
  const session = result.setCookies!.map((c) => c.split(';')[0]).join('; ');
  let audience = '';
  return async (id: string) => {
    const answer = await fetch(`${base}/posts/${id}`, {
      headers: {
        'user-agent': 'Mozilla/5.0 Chrome/131.0',
        'sec-fetch-dest': 'document',
        cookie: [session, audience].filter(Boolean).join('; '),
      },
    });
    const set = answer.headers.get('set-cookie');
    if (set?.startsWith('axis_audience=')) audience = set.split(';')[0]!;
    return { cache: answer.headers.get('x-page-cache'), html: await answer.text() };
  };
}

/** Every entry the cache holds for a post's page under the shared audiences. */
function cachedBodies(id: string): string[] {
  const req = { url: `/posts/${id}`, headers: {} } as unknown as IncomingMessage;
  return (['anonymous', 'member', 'paid'] as const).flatMap((audience) => {
    const found = pages.find(pageKey(req, audience), undefined);
    return found ? [found.page.body.toString()] : [];
  });
}

const post = (who: Who | null, fields: Record<string, string>, extra: Partial<PostOptions> = {}) =>
  handleCommentCreate(formPost('/api/comments', { who, fields, ...extra }), deps);
const act = (
  action: 'edit' | 'delete' | 'report',
  who: Who | null,
  fields: Record<string, string>,
) => handleCommentAction(action, formPost(`/api/comments/${action}`, { who, fields }), deps);
const moderate = (who: Who, action: string, commentId: string) =>
  moderationHandler(deps)(
    formPost('/api/comments/moderate', { who, fields: { action, commentId } }),
  );

/** The message of a JSON answer. */
const messageOf = async (answer: Response) =>
  ((await answer.json()) as { message: string | null }).message;

const commentsOn = (contentId: string) =>
  database.db.select().from(comments).where(eq(comments.contentId, contentId));
const idOf = async (contentId: string, body: string) =>
  (await commentsOn(contentId)).find((c) => c.body === body)!.id;

beforeAll(async () => {
  vi.stubEnv('APP_SECRET', 's'.repeat(40));
  state.site = createSiteContent({ db: database.db });
  const posts = findEndpoint('posts')!;
  const make = (id: string, isPublicPreview: boolean, day = 27) =>
    createContent(database.db, posts, {
      id,
      status: 'publish',
      body: {
        title: `記事 ${id}`,
        body: `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}${SECRET}</p>`,
        isPublicPreview,
        publishedAt: new Date(Date.UTC(2026, 10, day)).toISOString(),
      },
    });
  await make('open-1', true);
  await make('open-2', true);
  await make('paid-1', false, 20);
  // The three newest members' posts are the free plan's: paid-1 is older than they are.
  for (const n of [1, 2, 3]) await make(`free-plan-${n}`, false, 20 + n);
  await createContent(database.db, findEndpoint('audios')!, {
    id: 'audio-paid',
    status: 'publish',
    body: { title: '有料会員の音声', isPublicPreview: false, writers: [] },
  });
  for (const who of Object.values(users)) await addUser(database, who);
  for (const who of [users.paid, users.paid2, users.troll])
    await grantComplimentary(database.db, {
      userId: who.id,
      planName: 'monthly',
      status: 'active',
    });

  front = await startFrontServer(framework, pages);
  base = front.base;
});
afterAll(async () => {
  await front?.stop();
  state.site?.dispose();
  vi.unstubAllEnvs();
});

describe('a comment’s text', () => {
  it('is rendered inert: no script, no javascript: link, no attribute injection', async () => {
    const body = [
      '<script>alert(1)</script>',
      '<a href="javascript:alert(2)">x</a> javascript:alert(3)',
      '"><img src=x onerror=alert(4)>',
      'https://example.com/a"onmouseover="alert(5) と https://example.jp/ok。',
    ].join('\n');
    const answer = await post(
      'paid',
      { postId: 'open-1', body },
      { plain: true, referer: '/posts/open-1' },
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/posts/open-1#comments');
    expect(flashOf(answer)?.message).toBe('コメントを投稿しました。');

    const { html } = await visit('open-1');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script>alert/);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/<img src=x/);
    expect(html).not.toMatch(/\sonmouseover=/);
    // Only http(s) addresses are links, marked as the readers', and end before the quote.
    expect(html).toContain(
      '<a href="https://example.com/a" rel="nofollow ugc noopener" target="_blank">',
    );
    expect(html).toContain('<a href="https://example.jp/ok" rel="nofollow ugc noopener"');
    // The public profile's name, never the e-mail.
    expect(html).toContain('有料の読者');
    expect(html).not.toContain(users.paid.email);
  });

  it('is refused past 2,000 characters or empty, in Japanese, and nothing is stored', async () => {
    const long = await post('paid', { postId: 'open-2', body: 'あ'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(await messageOf(long)).toBe('コメントは 2,000 文字以内で入力してください。');
    expect((await post('paid', { postId: 'open-2', body: '   ' })).status).toBe(400);
    expect((await post('paid', { postId: '../x', body: 'a' })).status).toBe(400);
    expect(await commentsOn('open-2')).toHaveLength(0);
  });
});

describe('who may write', () => {
  it('refuses a comment on a post the writer may not read, and stores nothing', async () => {
    const refused = await post('free', { postId: 'paid-1', body: '読めない記事へ' });
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toBe('このコンテンツを読める会員だけがコメントできます。');
    expect((await post('paid', { postId: 'no-such', body: 'x' })).status).toBe(404);
    expect((await post(null, { postId: 'open-1', body: 'x' })).status).toBe(401);
    expect(await commentsOn('paid-1')).toHaveLength(0);
    expect(await commentsOn('no-such')).toHaveLength(0);
  });

  it('refuses a members’ audio to a free member, and takes a paid member’s comment on it', async () => {
    const fields = { endpoint: 'audios', postId: 'audio-paid', body: '音声への感想' };
    expect((await post('free', fields)).status).toBe(403);
    expect((await post('paid', fields)).status).toBe(200);
    expect((await post('paid', { ...fields, endpoint: 'jobs' })).status).toBe(400);
    expect(await commentsOn('audio-paid')).toHaveLength(1);
  });

  it('sends a refused plain form back to the page with the message, and limits bursts', async () => {
    const refused = await post(
      'paid2',
      { postId: 'open-2', body: 'い'.repeat(2001), formKey: 'comment' },
      { plain: true, referer: '/posts/open-2' },
    );
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/posts/open-2');
    expect(flashOf(refused)?.message).toBe('コメントは 2,000 文字以内で入力してください。');
    // Ten new comments in ten minutes per member; the eleventh waits.
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++)
      statuses.push((await post('paid2', { postId: 'open-1', body: `連投 ${n}` })).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    await database.db.delete(comments).where(eq(comments.userId, users.paid2.id));
    await database.db.delete(rateLimitHits);
  });

  it('tells a reader which comments are their own, and a visitor none', async () => {
    await post('paid', { postId: 'open-2', body: '自分のコメント' });
    const id = await idOf('open-2', '自分のコメント');
    const ask = (who: Who | null) =>
      handleCommentsGet(
        new Request('http://localhost:3000/api/comments?endpoint=posts&contentId=open-2', {
          headers: who ? { [TEST_VIEWER_HEADER]: who } : {},
        }),
        deps,
      );
    const mine = await ask('paid');
    expect(mine.headers.get('cache-control')).toContain('no-store');
    expect(((await mine.json()) as { own: string[] }).own).toContain(id);
    expect(((await (await ask('paid2')).json()) as { own: string[] }).own).not.toContain(id);
    expect(await (await ask(null)).json()).toEqual({ signedIn: false, own: [] });
  });

  it('lets free members write only once an admin opened it, audited', async () => {
    const before = await post('free', { postId: 'open-2', body: '無料会員から' });
    expect(before.status).toBe(403);
    expect(await messageOf(before)).toBe('コメントを書けるのは有料会員です。');
    // An editor may not change it (the bare 404); an admin may.
    const asEditor = formPost('/api/comments/settings', {
      who: 'editor',
      fields: { freeMembersWrite: 'on' },
    });
    expect((await settingsHandler(deps)(asEditor)).status).toBe(404);
    const asAdmin = formPost('/api/comments/settings', {
      who: 'admin',
      fields: { freeMembersWrite: 'on' },
    });
    expect((await settingsHandler(deps)(asAdmin)).status).toBe(200);
    expect((await post('free', { postId: 'open-2', body: '無料会員から' })).status).toBe(200);
    // Still not on a post they may not read.
    expect((await post('free', { postId: 'paid-1', body: 'x' })).status).toBe(403);
    const audit = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.target, 'setting:comments_free_members_write'));
    expect(audit).toHaveLength(1);
    const off = formPost('/api/comments/settings', { who: 'admin', fields: {} });
    await settingsHandler(deps)(off);
  });
});

describe('replies, edits and deletions', () => {
  it('answers one level deep: a reply to a reply is refused', async () => {
    await post('paid', { postId: 'open-2', body: '親のコメント' });
    const parentId = await idOf('open-2', '親のコメント');
    expect((await post('paid2', { postId: 'open-2', body: '返信', parentId })).status).toBe(200);
    const replyId = await idOf('open-2', '返信');
    const deeper = await post('paid', { postId: 'open-2', body: '返信の返信', parentId: replyId });
    expect(deeper.status).toBe(400);
    expect(await messageOf(deeper)).toBe(
      '返信への返信はできません。元のコメントに返信してください。',
    );
    // A parent on another item is not found.
    expect((await post('paid', { postId: 'open-1', body: 'よそ', parentId })).status).toBe(404);
  });

  it('edits only one’s own comment, only within 10 minutes', async () => {
    await post('paid', { postId: 'open-2', body: '編集する前' });
    const id = await idOf('open-2', '編集する前');
    const others = await act('edit', 'paid2', { commentId: id, body: '乗っ取り' });
    expect(others.status).toBe(403);
    expect((await act('delete', 'paid2', { commentId: id })).status).toBe(403);
    expect((await act('edit', 'paid', { commentId: id, body: '編集した後' })).status).toBe(200);
    await database.db
      .update(comments)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(comments.id, id));
    const late = await act('edit', 'paid', { commentId: id, body: '遅すぎる編集' });
    expect(late.status).toBe(403);
    expect(await messageOf(late)).toBe('コメントを編集できるのは投稿から10分以内です。');
    const [row] = await database.db.select().from(comments).where(eq(comments.id, id));
    expect(row!.body).toBe('編集した後');
    // Deleting one's own is always possible.
    expect((await act('delete', 'paid', { commentId: id })).status).toBe(200);
    expect((await visit('open-2')).html).not.toContain('編集した後');
  });
});

describe('moderation', () => {
  it('hides a comment: gone from the HTML and from the cached page at the next request', async () => {
    await post('paid', { postId: 'open-1', body: '消される予定のコメント' });
    const id = await idOf('open-1', '消される予定のコメント');
    expect((await visit('open-1')).html).toContain('消される予定のコメント');
    const again = await visit('open-1');
    expect(again.cache).toBe('hit');
    expect(again.html).toContain('消される予定のコメント');

    // A member may not moderate: the bare 404, nothing changes.
    expect((await moderate('paid2', 'hide', id)).status).toBe(404);
    expect((await moderate('editor', 'hide', id)).status).toBe(200);
    for (const body of cachedBodies('open-1')) expect(body).not.toContain('消される予定のコメント');
    const after = await visit('open-1');
    expect(after.html).not.toContain('消される予定のコメント');
    // Pinning puts the newest comment above the older ones, marked, at the next request.
    await post('paid2', { postId: 'open-1', body: '新しいコメント' });
    const newest = await idOf('open-1', '新しいコメント');
    expect((await moderate('editor', 'pin', newest)).status).toBe(200);
    const pinned = (await visit('open-1')).html;
    expect(pinned).toContain('ピン留め');
    expect(pinned.indexOf('新しいコメント')).toBeLessThan(pinned.indexOf('有料の読者'));
    expect(after.html).toContain('有料の読者'); // the other comments stay
    const [audit] = await database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'comment-hidden'), eq(auditEvents.target, `comment:${id}`)),
      );
    expect(audit).toMatchObject({ actor: `user:${users.editor.id}` });
  });

  it('bans a commenter: their comments never show and the API refuses their writes', async () => {
    await post('troll', { postId: 'open-1', body: '荒らしのコメント' });
    const id = await idOf('open-1', '荒らしのコメント');
    expect((await visit('open-1')).html).toContain('荒らしのコメント');
    // Reported by two members, once each however often they press it.
    for (const who of ['paid', 'paid', 'paid2'] as const)
      expect((await act('report', who, { commentId: id, reason: '荒らし' })).status).toBe(200);
    expect(
      await database.db.select().from(commentReports).where(eq(commentReports.commentId, id)),
    ).toHaveLength(2);

    expect((await moderate('editor', 'ban', id)).status).toBe(200);
    expect((await visit('open-1')).html).not.toContain('荒らしのコメント');
    const refused = await post('troll', { postId: 'open-1', body: 'まだ書く' });
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toBe('このアカウントはコメントの投稿を停止されています。');
    expect((await act('edit', 'troll', { commentId: id, body: '書き換え' })).status).toBe(403);
    // Nor may anyone reply under their comment, which shows nowhere.
    expect((await post('paid', { postId: 'open-1', body: '返信', parentId: id })).status).toBe(404);
    expect((await commentsOn('open-1')).filter((c) => c.userId === users.troll.id)).toHaveLength(1);
    // The ban resolved the reports; it is audited.
    const open = await database.db
      .select()
      .from(commentReports)
      .where(eq(commentReports.commentId, id));
    expect(open.every((r) => r.resolvedAt !== null)).toBe(true);
    const audit = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'commenter-banned'));
    expect(audit[0]?.detail).toMatchObject({ writer: `user:${users.troll.id}` });
  });

  it('shows a writer’s new name on the pages they commented on, at the next request', async () => {
    const writer = appUser('c-renamed', 'member', '改名前の読者');
    await addUser(database, writer);
    await grantComplimentary(database.db, {
      userId: writer.id,
      planName: 'monthly',
      status: 'active',
    });
    const renamed = { ...users, writer };
    const asWriter = { ...deps, currentUser: testViewer(renamed) };
    const created = await handleCommentCreate(
      formPost('/api/comments', {
        who: 'writer',
        fields: { postId: 'open-2', body: '名前の変わるコメント' },
      }),
      asWriter,
    );
    expect(created.status).toBe(200);
    await visit('open-2');
    expect((await visit('open-2')).cache).toBe('hit');

    const changed = await editProfile(
      { db: database.db, auth: await appAuth() },
      { displayName: '改名後の読者' },
      { headers: new Headers(), ip: '192.0.2.9' },
      // As named in the sign-in record already: the profile's name is what comments show.
      { ...writer, name: '改名後の読者' },
    );
    expect(changed.ok).toBe(true);
    for (const body of cachedBodies('open-2')) expect(body).not.toContain('改名前の読者');
    const after = (await visit('open-2')).html;
    expect(after).toContain('改名後の読者');
    expect(after).not.toContain('改名前の読者');
  });

  it('shows the console’s queue to editors, escaped, and the 404 to anyone else', async () => {
    await post('troll', { postId: 'open-2', body: 'x' }); // refused: banned
    await post('paid2', { postId: 'open-2', body: '<b>報告される</b>' });
    const id = await idOf('open-2', '<b>報告される</b>');
    await act('report', 'paid', { commentId: id, reason: '不快' });
    const page = async (who: AppUser) => {
      state.user = who;
      try {
        return renderToStaticMarkup(await AdminCommentsPage());
      } finally {
        state.user = null;
      }
    };
    const html = await page(users.editor);
    expect(html).toContain('報告されたコメント（1）');
    expect(html).toContain('&lt;b&gt;報告される&lt;/b&gt;');
    expect(html).toContain('報告 1 件：不快');
    expect(html).not.toContain(users.paid2.email);
    // The free-members setting is the admins'.
    expect(html).not.toContain('/api/comments/settings');
    expect(await page(users.admin)).toContain('/api/comments/settings');
    await expect(page(users.paid)).rejects.toThrow();
  });
});

describe('a members-only post', () => {
  it('shows its comments only to those who may read it, never in another audience’s cache', async () => {
    expect((await post('paid', { postId: 'paid-1', body: '会員限定記事への感想' })).status).toBe(
      200,
    );
    const visitor = await visit('paid-1');
    expect(visitor.html).not.toContain(SECRET);
    expect(visitor.html).not.toContain('会員限定記事への感想');
    await visit('paid-1');
    for (const body of cachedBodies('paid-1')) expect(body).not.toContain('会員限定記事への感想');
  });

  it('gives paid readers its comments from their own cache entry, purged when one is hidden', async () => {
    const browse = await paidBrowser();
    await browse('paid-1'); // the audience cookie is set
    const first = await browse('paid-1');
    expect(first.html).toContain(SECRET);
    expect(first.html).toContain('会員限定記事への感想');
    const hit = await browse('paid-1');
    expect(hit.cache).toBe('hit');
    expect(hit.html).toContain('会員限定記事への感想');
    // The visitor's page, rendered after the paid entry, still holds neither.
    const visitor = await visit('paid-1');
    expect(visitor.html).not.toContain('会員限定記事への感想');
    expect(visitor.html).not.toContain(SECRET);

    await moderate('editor', 'hide', await idOf('paid-1', '会員限定記事への感想'));
    expect((await browse('paid-1')).html).not.toContain('会員限定記事への感想');
  });
});

describe('the list kept for renders', () => {
  it('keeps no list read while a change of the item’s comments came', async () => {
    const item = { endpoint: 'posts', contentId: 'free-plan-1' } as const;
    const write = (body: string) =>
      database.db.insert(comments).values({ ...item, userId: users.paid.id, body });
    await write('変更の前のコメント');
    const reading = listItemComments(database.db, item);
    purgeItems([item]); // a change arrives while the list is read
    expect((await reading).map((c) => c.body)).toEqual(['変更の前のコメント']);
    // Written without a change of its own: only a list read afresh shows it.
    await write('変更の後のコメント');
    expect((await listItemComments(database.db, item)).map((c) => c.body)).toEqual([
      '変更の前のコメント',
      '変更の後のコメント',
    ]);
  });
});

describe('the daily digest', () => {
  it('mails the author the previous day’s comments once, however many rounds run', async () => {
    // The posts were made by the CLI; make the admin the author of open-2.
    const { cmsVersions } = await import('@/server/platform/db/schema');
    await database.db
      .update(cmsVersions)
      .set({ actor: `user:${users.admin.id}` })
      .where(eq(cmsVersions.contentId, 'open-2'));
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000);
    await database.db
      .update(comments)
      .set({ createdAt: yesterday })
      .where(eq(comments.contentId, 'open-2'));
    const sent = await sendCommentDigests(database.db, now);
    expect(sent).toBe(1);
    expect(await sendCommentDigests(database.db, now)).toBe(0);
    expect(await database.db.select().from(commentDigests)).toHaveLength(1);
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'comments-digest'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(users.admin.email);
  });
});
