import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorAnswer, SaveAnswer } from '@/lib/admin-content';
import { findEndpoint } from '@/lib/cms/model';
import { SLUG_MESSAGES } from '@/lib/cms/slug';
import { consoleRoutes } from '@/server/features/console/console-http';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import {
  bookmarks,
  cmsRedirects,
  cmsSubmissions,
  newsletterSends,
  pageViews,
  userPrivateProfiles,
} from '@/server/platform/db/schema';
import { feedResponse } from '@/server/features/seo/feed';
import { readSitemap } from '@/server/features/seo/sitemap';
import {
  SITE,
  addUser,
  appUser,
  auditsOf,
  siteHeaders,
  testDataDir,
  testDatabase,
  testViewer,
} from '@test-support/route-tests';
import { type ContentChange, emitContentChange, onContentChange } from './events';
import { movedLocation, movedPath } from './redirects';
import { renameContent } from './rename';
import { getContent, listContents } from './store';
import { listVersions } from './versions';
import { createContent, deleteContent, updateContent } from './writes';

/**
 * Slugs (docs/decisions/033-slugs-and-redirects.md) on a real database: an editor creates an
 * item under a chosen id, renames it, and everything that stored the old id follows in one
 * transaction while the old URL moves to the new one, once, without loops.
 */

testDataDir('slugs');
const database = testDatabase();
const def = (endpoint: string) => findEndpoint(endpoint)!;
const posts = def('posts');
const editor = appUser('slug-editor', 'editor', '編集 一郎');
const contributor = appUser('slug-contributor', 'contributor', '寄稿 花子');
const routes = consoleRoutes({ viewer: testViewer({ editor, contributor }) });

type Answer = Partial<Omit<SaveAnswer, 'ok'>> & Partial<ErrorAnswer>;

type Who = 'editor' | 'contributor';

function post(url: string, body: unknown, who: Who = 'editor'): Request {
  return new Request(`${SITE}${url}`, {
    method: 'POST',
    headers: { ...siteHeaders({ who }), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function create(fields: Record<string, unknown>, id?: string, who: Who = 'editor') {
  const response = await routes.create(
    post('/api/admin/content/posts', { fields, ...(id === undefined ? {} : { id }) }, who),
    'posts',
  );
  return { status: response.status, body: (await response.json()) as Answer };
}

async function rename(from: string, to: string, baseUpdatedAt: string) {
  const response = await routes.rename(
    post(`/api/admin/content/posts/${from}/rename`, { id: to, baseUpdatedAt }),
    'posts',
    from,
  );
  return { status: response.status, body: (await response.json()) as Answer };
}

const publish = (endpoint: string, id: string, body: Record<string, unknown>) =>
  createContent(database.db, def(endpoint), { id, body, status: 'publish' });
const read = (id: string, depth = 0) =>
  getContent(database.db, posts, id, { depth }, { kind: 'published' });
const readDraft = (id: string) =>
  getContent(database.db, posts, id, { depth: 0 }, { kind: 'allDrafts' });
const changes: ContentChange[] = [];
let stopListening: () => unknown = () => undefined;
beforeAll(() => {
  stopListening = onContentChange((change) => changes.push(change));
});
afterAll(() => stopListening());

describe('choosing the id at creation', () => {
  it('creates the item under the slug, and keeps a random id when none is given', async () => {
    const chosen = await create({ title: 'スラッグの記事' }, 'my-first-slug');
    expect(chosen.status).toBe(201);
    expect(chosen.body.id).toBe('my-first-slug');
    const random = await create({ title: '自動の記事' });
    expect(random.status).toBe(201);
    expect(random.body.id).toMatch(/^[a-z0-9]{12}$/);
  });

  it('refuses, in Japanese on the id field, bad characters, reserved ids and a taken id', async () => {
    for (const [slug, message] of [
      ['My_Slug', SLUG_MESSAGES.characters],
      ['-edge', SLUG_MESSAGES.characters],
      ['日本語', SLUG_MESSAGES.characters],
      ['a'.repeat(51), SLUG_MESSAGES.tooLong],
      ['preview', SLUG_MESSAGES.reserved('preview')],
      ['my-first-slug', SLUG_MESSAGES.taken('my-first-slug', '記事')],
    ] as const) {
      const refused = await create({ title: '重複' }, slug);
      expect(refused.status, slug).toBe(400);
      expect(refused.body.fieldErrors?.id, slug).toBe(message);
    }
  });

  it('checks the rule again in the store, under the content API’s own microCMS rule', async () => {
    await expect(
      createContent(database.db, posts, {
        id: 'Upper_Case',
        slug: true,
        body: { title: 'x' },
        status: 'draft',
      }),
    ).rejects.toMatchObject({ code: 'content-id-invalid' });
    // microCMS allows capitals and `_` in an id given with PUT: the API still does.
    await createContent(database.db, posts, {
      id: 'Api_Id',
      body: { title: 'x' },
      status: 'draft',
    });
  });
});

describe('renaming', () => {
  let updatedAt = '';
  beforeAll(async () => {
    const db = database.db;
    await addUser(database, editor);
    await addUser(database, contributor);
    await publish('categories', 'cat-r', { name: '特集' });
    await publish('posts', 'old-slug', {
      title: '改名される記事',
      body: '<p>改名キーワード</p>',
      category: 'cat-r',
      isPublicPreview: true,
    });
    await publish('posts', 'neighbour', {
      title: '隣の記事',
      relatedPosts: ['old-slug'],
      isPublicPreview: true,
    });
    await updateContent(
      db,
      posts,
      'neighbour',
      { relatedPosts: ['old-slug'], title: '隣の記事 (下書き)' },
      { draft: true },
    );
    await updateContent(
      db,
      def('home'),
      '',
      { featuredPosts: ['neighbour', 'old-slug'] },
      {
        draft: false,
      },
    );
    await db
      .insert(bookmarks)
      .values({ userId: editor.id, endpoint: 'posts', contentId: 'old-slug' });
    await db.insert(pageViews).values({
      day: '2026-11-27',
      path: '/posts/old-slug',
      endpoint: 'posts',
      contentId: 'old-slug',
      visitorId: 'v1',
    });
    await db.insert(cmsSubmissions).values({ endpoint: 'posts', contentId: 'old-slug' });
    await db
      .insert(newsletterSends)
      .values({ contentId: 'old-slug', segment: 'all', status: 'done' });
    await db
      .update(userPrivateProfiles)
      .set({ sourceEndpoint: 'posts', sourceContentId: 'old-slug' })
      .where(eq(userPrivateProfiles.userId, editor.id));
    updatedAt = ((await read('old-slug')).updatedAt as string) ?? '';
  });

  it('refuses a taken id and a stale form, changing nothing', async () => {
    const taken = await rename('old-slug', 'neighbour', updatedAt);
    expect(taken.status).toBe(400);
    expect(taken.body.fieldErrors?.id).toBe(SLUG_MESSAGES.taken('neighbour', '記事'));
    const stale = await rename('old-slug', 'new-slug', '2020-01-01T00:00:00.000Z');
    expect(stale.status).toBe(409);
    expect((await read('old-slug')).id).toBe('old-slug');
  });

  it('moves the item, every reference and every stored id to the new one, in one step', async () => {
    changes.length = 0;
    const renamed = await rename('old-slug', 'new-slug', updatedAt);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: 'new-slug', publicUrl: '/posts/new-slug' });
    await expect(read('old-slug')).rejects.toMatchObject({ status: 404 });
    expect(await read('new-slug')).toMatchObject({ title: '改名される記事' });

    // Relations, published and draft, and the home's featured posts (an object endpoint).
    const neighbour = await read('neighbour', 1);
    expect((neighbour.relatedPosts as { id: string }[]).map((p) => p.id)).toEqual(['new-slug']);
    expect((await readDraft('neighbour')).relatedPosts).toEqual([{ id: 'new-slug' }]);
    const home = await getContent(
      database.db,
      def('home'),
      '',
      { depth: 0 },
      {
        kind: 'published',
      },
    );
    expect(home.featuredPosts).toEqual([{ id: 'neighbour' }, { id: 'new-slug' }]);

    // Search, history, bookmarks, analytics, newsletters, attribution.
    const found = await listContents(
      database.db,
      posts,
      { limit: 10, offset: 0, depth: 0, q: '改名キーワード' },
      { kind: 'published' },
    );
    expect(found.contents.map((c) => c.id)).toEqual(['new-slug']);
    const history = await listVersions(database.db, 'posts', 'new-slug');
    expect(history.map((v) => v.action)).toEqual(['rename', 'create']);
    expect(await listVersions(database.db, 'posts', 'old-slug')).toEqual([]);
    const stored = async <T>(rows: Promise<T[]>) => (await rows)[0];
    const db = database.db;
    expect(await stored(db.select().from(bookmarks))).toMatchObject({ contentId: 'new-slug' });
    expect(await stored(db.select().from(pageViews))).toMatchObject({
      contentId: 'new-slug',
      path: '/posts/new-slug',
    });
    expect(await stored(db.select().from(cmsSubmissions))).toMatchObject({
      contentId: 'new-slug',
    });
    expect(await stored(db.select().from(newsletterSends))).toMatchObject({
      contentId: 'new-slug',
    });
    expect(
      await stored(
        db.select().from(userPrivateProfiles).where(eq(userPrivateProfiles.userId, editor.id)),
      ),
    ).toMatchObject({ sourceContentId: 'new-slug' });

    // Who did it, and every cache keyed by either id is told.
    const [audit] = await auditsOf(database, 'content-renamed', 'content:posts/new-slug');
    expect(audit).toMatchObject({
      actor: `user:${editor.id}`,
      detail: { endpoint: 'posts', from: 'old-slug', to: 'new-slug' },
    });
    expect(changes).toEqual([
      { endpoint: 'posts', id: 'old-slug' },
      { endpoint: 'posts', id: 'new-slug' },
    ]);
  });

  it('answers the old URL with the new one: encoded, with a trailing slash or a sub-page', async () => {
    const db = database.db;
    expect(await movedPath(db, '/posts/old-slug')).toBe('/posts/new-slug');
    expect(await movedPath(db, '/posts/old-slug/')).toBe('/posts/new-slug');
    expect(await movedPath(db, '/posts/%6Fld-slug')).toBe('/posts/new-slug');
    expect(await movedPath(db, '/posts/old-slug/preview')).toBe('/posts/new-slug/preview');
    expect(await movedPath(db, '/posts/new-slug')).toBeNull();
    expect(await movedPath(db, '/posts/%E0%A4%A')).toBeNull();
    expect(await movedPath(db, '/audios/old-slug')).toBeNull(); // another endpoint's URL
    // What the front server answers 301 with before any page renders (page-requests.ts): the
    // query kept.
    expect(await movedLocation(db, '/posts/%6Fld-slug', '?utm_source=x')).toBe(
      '/posts/new-slug?utm_source=x',
    );
    expect(await movedLocation(db, '/posts/new-slug', '?utm_source=x')).toBeNull();
  });

  it('takes a reference to the old id as the new one (an open form, an older version)', async () => {
    await updateContent(
      database.db,
      posts,
      'neighbour',
      { relatedPosts: ['old-slug'] },
      {
        draft: true,
      },
    );
    expect((await readDraft('neighbour')).relatedPosts).toEqual([{ id: 'new-slug' }]);
  });

  it('keeps the old URL while a draft would take its id: refused, for anyone, on every path', async () => {
    const redirected = SLUG_MESSAGES.redirected('old-slug', '記事');
    for (const who of ['contributor', 'editor'] as const) {
      const refused = await create({ title: '旧 ID の下書き' }, 'old-slug', who);
      expect(refused.status, who).toBe(400);
      expect(refused.body.fieldErrors?.id, who).toBe(redirected);
    }
    for (const status of ['draft', 'closed'] as const)
      await expect(
        createContent(database.db, posts, { id: 'old-slug', body: { title: 'x' }, status }),
      ).rejects.toMatchObject({ status: 400, code: 'content-id-redirected' });
    // Nor may a draft be renamed to it.
    const draft = await create({ title: '改名する下書き' }, 'draft-to-rename');
    const renamed = await rename('draft-to-rename', 'old-slug', draft.body.updatedAt!);
    expect(renamed.status).toBe(400);
    expect(renamed.body.fieldErrors?.id).toBe(redirected);
    expect(await movedPath(database.db, '/posts/old-slug')).toBe('/posts/new-slug');
    expect(await movedPath(database.db, '/posts/draft-to-rename')).toBeNull();
  });

  it('collapses chains, never loops, and lets an item that takes an old id win', async () => {
    const db = database.db;
    const ctx = { actor: `user:${editor.id}` };
    await renameContent(db, posts, 'new-slug', 'third-slug', ctx);
    expect(await movedPath(db, '/posts/old-slug')).toBe('/posts/third-slug');
    expect(await movedPath(db, '/posts/new-slug')).toBe('/posts/third-slug');
    // Back to the first id: it is the item's again, and both others lead there.
    await renameContent(db, posts, 'third-slug', 'old-slug', ctx);
    expect(await movedPath(db, '/posts/old-slug')).toBeNull();
    expect(await movedPath(db, '/posts/new-slug')).toBe('/posts/old-slug');
    expect(await movedPath(db, '/posts/third-slug')).toBe('/posts/old-slug');
    // A new item under an old id: its page is its own.
    await publish('posts', 'third-slug', { title: '新しい記事', isPublicPreview: true });
    expect(await movedPath(db, '/posts/third-slug')).toBeNull();
    expect(await movedPath(db, '/posts/new-slug')).toBe('/posts/old-slug');
    // Deleting the item takes its redirects with it (its old URLs are 404 like its own).
    await deleteContent(db, posts, 'third-slug');
    const left = await db
      .select({ fromId: cmsRedirects.fromId, toId: cmsRedirects.toId })
      .from(cmsRedirects)
      .where(and(eq(cmsRedirects.endpoint, 'posts')));
    expect(left).toEqual([{ fromId: 'new-slug', toId: 'old-slug' }]);
  });
});

describe('the front server asking whether a page moved', () => {
  // Every item page asks before it renders (src/server/features/front/page-requests.ts): an id
  // no item was renamed from is remembered, and only a rename, told as every write tells the
  // caches, makes it one.
  it('asks the database once for an id no item was renamed from, and sees a rename at once', async () => {
    const db = database.db;
    const ctx = { actor: `user:${editor.id}` };
    const created = await publish('posts', 'asked-often', { title: '何度も読まれる記事' });
    const select = vi.spyOn(db, 'select');
    try {
      for (let i = 0; i < 3; i++) expect(await movedPath(db, '/posts/asked-often')).toBeNull();
      expect(await movedLocation(db, '/posts/asked-often', '?from=mail')).toBeNull();
      expect(select).toHaveBeenCalledTimes(1);
      await renameContent(db, posts, created.id, 'asked-often-renamed', ctx);
      expect(await movedPath(db, '/posts/asked-often')).toBe('/posts/asked-often-renamed');
    } finally {
      select.mockRestore();
    }
  });

  it('keeps no answer read while a rename of that id was told', async () => {
    const db = database.db;
    await publish('posts', 'renamed-meanwhile', { title: '読む間に改名される記事' });
    const original = db.select.bind(db);
    const select = vi.spyOn(db, 'select');
    try {
      // The change is told while the lookup is on its way: what it read may be the old state.
      select.mockImplementationOnce((...args: Parameters<typeof db.select>) => {
        emitContentChange({ endpoint: 'posts', id: 'renamed-meanwhile' });
        return original(...args);
      });
      expect(await movedPath(db, '/posts/renamed-meanwhile')).toBeNull();
      expect(await movedPath(db, '/posts/renamed-meanwhile')).toBeNull();
      expect(select).toHaveBeenCalledTimes(2);
    } finally {
      select.mockRestore();
    }
  });
});

describe('renaming a tag or a feature', () => {
  it('moves the lists filtered by it: /posts?tag= and ?category= answer 301, the rest kept', async () => {
    const db = database.db;
    const ctx = { actor: `user:${editor.id}` };
    await publish('tags', 'old-tag', { name: 'タグ' });
    await publish('categories', 'old-feature', { name: '特集' });
    await publish('posts', 'tagged', {
      title: 'タグ付き',
      tags: ['old-tag'],
      category: 'old-feature',
    });
    await renameContent(db, def('tags'), 'old-tag', 'new-tag', ctx);
    await renameContent(db, def('categories'), 'old-feature', 'new-feature', ctx);
    expect(await read('tagged')).toMatchObject({
      tags: [{ id: 'new-tag' }],
      category: { id: 'new-feature' },
    });

    expect(await movedLocation(db, '/posts', '?tag=old-tag&page=2')).toBe(
      '/posts?tag=new-tag&page=2',
    );
    expect(await movedLocation(db, '/posts/', '?category=old-feature&tag=old-tag')).toBe(
      '/posts/?category=new-feature&tag=new-tag',
    );
    expect(await movedLocation(db, '/feature/old-feature', '?page=2')).toBe(
      '/feature/new-feature?page=2',
    );
    for (const [path, search] of [
      ['/posts', '?tag=new-tag'],
      ['/posts', '?tag=unknown'],
      ['/posts', '?tag=%E0%A4%A'],
      ['/posts', ''],
      ['/movies', '?tag=old-tag'],
    ] as const)
      expect(await movedLocation(db, path, search), `${path}${search}`).toBeNull();

    // What the front server answers 301 with (page-requests.ts), the other parameters kept.
    expect(await movedLocation(db, '/posts', '?tag=old-tag&utm_source=x')).toBe(
      '/posts?tag=new-tag&utm_source=x',
    );
  });
});

describe('the sitemap and the feed after a rename', () => {
  let site: SiteContent;
  beforeAll(() => {
    site = createSiteContent({ db: database.db });
  });
  afterAll(() => site.dispose());

  it('list the new URL only', async () => {
    const siteUrl = 'https://axis.example.jp';
    // Read once before, so a cached answer would show.
    await readSitemap(site.client, siteUrl, 0);
    const before = await read('neighbour');
    await renameContent(database.db, posts, 'neighbour', 'neighbour-renamed', {
      actor: `user:${editor.id}`,
      expectedUpdatedAt: before.updatedAt as string,
    });
    const urls = (await readSitemap(site.client, siteUrl, 0)).map((e) => e.url);
    expect(urls).toContain(`${siteUrl}/posts/neighbour-renamed`);
    expect(urls).not.toContain(`${siteUrl}/posts/neighbour`);
    const feed = await (await feedResponse(site.client, { siteUrl, siteName: 'AXIS' })).text();
    expect(feed).toContain(`${siteUrl}/posts/neighbour-renamed`);
    expect(feed).not.toContain(`${siteUrl}/posts/neighbour<`);
    expect(feed).not.toContain(`${siteUrl}/posts/neighbour"`);
  });
});
