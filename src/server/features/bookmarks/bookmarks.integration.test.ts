import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jsonPost } from '@test-support/json-post';
import { testDatabase } from '@test-support/route-tests';
import { BOOKMARK_LIMIT, type BookmarkRef } from '@/lib/bookmarks';
import type { ContentClient } from '@/server/features/content/client';
import { bookmarks, user } from '@/server/platform/db/schema';
import { loadBookmarkPage } from './bookmark-page';
import {
  BOOKMARK_LIMIT_MESSAGE,
  BookmarkError,
  addBookmark,
  bookmarkedAmong,
  listBookmarks,
  removeBookmark,
} from './bookmarks';
import {
  type BookmarksHttpDeps,
  NOT_FOUND_MESSAGE,
  SIGN_IN_MESSAGE,
  handleBookmarksGet,
  handleBookmarksPost,
} from './bookmarks-http';

const post = (contentId: string): BookmarkRef => ({ endpoint: 'posts', contentId });

describe('bookmarks against the database', () => {
  const database = testDatabase({ global: false });
  let counter = 0;

  /** A user row, as better-auth would have made it. */
  async function newUser(): Promise<string> {
    const id = `user-${++counter}-${Date.now()}`;
    await database.db
      .insert(user)
      .values({ id, name: `読者 ${counter}`, email: `${id}@example.jp` });
    return id;
  }

  it('adds and removes idempotently', async () => {
    const userId = await newUser();
    expect(await addBookmark(database.db, userId, post('post-001'))).toEqual({ added: true });
    expect(await addBookmark(database.db, userId, post('post-001'))).toEqual({ added: false });
    expect((await listBookmarks(database.db, userId, { limit: 10, offset: 0 })).total).toBe(1);

    expect(await removeBookmark(database.db, userId, post('post-001'))).toEqual({ removed: true });
    expect(await removeBookmark(database.db, userId, post('post-001'))).toEqual({ removed: false });
    expect(await listBookmarks(database.db, userId, { limit: 10, offset: 0 })).toEqual({
      items: [],
      total: 0,
    });
  });

  it('keeps the same id of different endpoints apart', async () => {
    const userId = await newUser();
    await addBookmark(database.db, userId, post('same-id'));
    await addBookmark(database.db, userId, { endpoint: 'movies', contentId: 'same-id' });
    await removeBookmark(database.db, userId, post('same-id'));
    const { items } = await listBookmarks(database.db, userId, { limit: 10, offset: 0 });
    expect(items.map((b) => `${b.endpoint}:${b.contentId}`)).toEqual(['movies:same-id']);
  });

  it('refuses endpoints that cannot be bookmarked and malformed ids', async () => {
    const userId = await newUser();
    await expect(
      addBookmark(database.db, userId, { endpoint: 'jobs' as 'posts', contentId: 'job-001' }),
    ).rejects.toMatchObject({
      code: 'invalid',
      message: 'ブックマークできない種類のコンテンツです。',
    });
    await expect(addBookmark(database.db, userId, post('../etc'))).rejects.toBeInstanceOf(
      BookmarkError,
    );
    await expect(removeBookmark(database.db, userId, post(''))).rejects.toBeInstanceOf(
      BookmarkError,
    );
  });

  it('lists newest first, a page at a time, with the total', async () => {
    const userId = await newUser();
    for (const id of ['a', 'b', 'c', 'd', 'e']) await addBookmark(database.db, userId, post(id));
    // Adding again keeps the original date: "a" stays the oldest.
    await addBookmark(database.db, userId, post('a'));

    const first = await listBookmarks(database.db, userId, { limit: 2, offset: 0 });
    expect(first.total).toBe(5);
    expect(first.items.map((b) => b.contentId)).toEqual(['e', 'd']);
    expect(first.items[0]!.createdAt).toBeInstanceOf(Date);
    const last = await listBookmarks(database.db, userId, { limit: 2, offset: 4 });
    expect(last.items.map((b) => b.contentId)).toEqual(['a']);
  });

  it("answers which of a page's items are bookmarked, and only the reader's own", async () => {
    const hanako = await newUser();
    const taro = await newUser();
    await addBookmark(database.db, hanako, post('p1'));
    await addBookmark(database.db, hanako, { endpoint: 'audios', contentId: 'a1' });
    await addBookmark(database.db, taro, post('p2'));

    const asked: BookmarkRef[] = [
      post('p2'),
      { endpoint: 'audios', contentId: 'a1' },
      post('p1'),
      // The same id under another endpoint is another item.
      { endpoint: 'movies', contentId: 'p1' },
      post('p1'),
    ];
    expect(await bookmarkedAmong(database.db, hanako, asked)).toEqual([
      { endpoint: 'audios', contentId: 'a1' },
      post('p1'),
    ]);
    expect(await bookmarkedAmong(database.db, taro, asked)).toEqual([post('p2')]);
    expect(await bookmarkedAmong(database.db, hanako, [])).toEqual([]);

    // Removing is per user too.
    await removeBookmark(database.db, taro, post('p1'));
    expect(await bookmarkedAmong(database.db, hanako, [post('p1')])).toEqual([post('p1')]);
    expect((await listBookmarks(database.db, taro, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it(`stops at ${BOOKMARK_LIMIT} bookmarks with a Japanese message; re-adding one still works`, async () => {
    const userId = await newUser();
    const base = Date.now() - BOOKMARK_LIMIT * 1000;
    await database.db.insert(bookmarks).values(
      Array.from({ length: BOOKMARK_LIMIT }, (_, i) => ({
        userId,
        endpoint: 'posts',
        contentId: `bulk-${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    );
    await expect(addBookmark(database.db, userId, post('one-too-many'))).rejects.toMatchObject({
      code: 'limit',
      message: BOOKMARK_LIMIT_MESSAGE,
    });
    expect(BOOKMARK_LIMIT_MESSAGE).toContain('2,000 件まで');
    // Nothing was kept of the refused one.
    expect(await bookmarkedAmong(database.db, userId, [post('one-too-many')])).toEqual([]);
    expect(await addBookmark(database.db, userId, post('bulk-7'))).toEqual({ added: false });
    // Room again after removing one.
    await removeBookmark(database.db, userId, post('bulk-0'));
    expect(await addBookmark(database.db, userId, post('one-too-many'))).toEqual({ added: true });
    expect((await listBookmarks(database.db, userId, { limit: 1, offset: 0 })).total).toBe(
      BOOKMARK_LIMIT,
    );
  });

  it('holds the cap when adds of one reader race', async () => {
    const userId = await newUser();
    const results = await Promise.allSettled(
      ['r1', 'r2', 'r3', 'r4', 'r5'].map((id) =>
        addBookmark(database.db, userId, post(id), { limit: 3 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect((await listBookmarks(database.db, userId, { limit: 10, offset: 0 })).total).toBe(3);
  });

  it('goes with the user when the account is deleted', async () => {
    const userId = await newUser();
    const other = await newUser();
    await addBookmark(database.db, userId, post('p1'));
    await addBookmark(database.db, userId, post('p2'));
    await addBookmark(database.db, other, post('p1'));
    await database.db.delete(user).where(eq(user.id, userId));
    expect(await database.db.select().from(bookmarks).where(eq(bookmarks.userId, userId))).toEqual(
      [],
    );
    expect((await listBookmarks(database.db, other, { limit: 10, offset: 0 })).total).toBe(1);
  });

  describe('the bookmarks page data', () => {
    it('reads titles and covers with one list read per endpoint; gone items have no item', async () => {
      const userId = await newUser();
      await addBookmark(database.db, userId, post('p1'));
      await addBookmark(database.db, userId, { endpoint: 'movies', contentId: 'm1' });
      await addBookmark(database.db, userId, post('gone'));
      await addBookmark(database.db, userId, post('p2'));
      const reads: { endpoint: string; ids: unknown; fields: unknown; limit: unknown }[] = [];
      const content = {
        getList: ({
          endpoint,
          queries,
        }: {
          endpoint: string;
          queries: { ids: string[]; fields: string; limit: number };
        }) => {
          reads.push({ endpoint, ...queries });
          const known: Record<string, object> = {
            'posts:p1': { title: '余白の設計', coverImage: { url: '/uploads/demo/p1.jpg' } },
            'posts:p2': { title: '文字を組む' },
            'movies:m1': { title: '工房を訪ねて', coverImage: { url: '/m1.jpg', alt: '工房' } },
          };
          const contents = queries.ids.flatMap((id) => {
            const found = known[`${endpoint}:${id}`];
            return found ? [{ id, ...found }] : [];
          });
          return Promise.resolve({ contents, totalCount: contents.length, offset: 0, limit: 10 });
        },
      } as unknown as ContentClient;

      const page = await loadBookmarkPage({ db: database.db, content }, userId, 1);
      expect(page).toMatchObject({ total: 4, page: 1, totalPages: 1 });
      expect(page.rows.map((r) => [r.key, r.item?.title ?? null, r.item?.href ?? null])).toEqual([
        ['posts:p2', '文字を組む', '/posts/p2'],
        ['posts:gone', null, null],
        ['movies:m1', '工房を訪ねて', '/movies/m1'],
        ['posts:p1', '余白の設計', '/posts/p1'],
      ]);
      expect(page.rows[2]!.item!.image).toEqual({ url: '/m1.jpg', alt: '工房' });
      expect(reads).toHaveLength(2);
      const postsRead = reads.find((r) => r.endpoint === 'posts')!;
      expect(postsRead.ids).toEqual(['p2', 'gone', 'p1']);
      expect(postsRead.limit).toBe(3);
      expect(postsRead.fields).toContain('title,coverImage');

      const second = await loadBookmarkPage({ db: database.db, content }, userId, 2, 3);
      expect(second.totalPages).toBe(2);
      expect(second.rows.map((r) => r.key)).toEqual(['posts:p1']);
    });
  });

  describe('/api/bookmarks', () => {
    const ORIGIN = 'http://localhost:3000';
    let signedIn: string | null = null;
    const published = new Set(['posts:post-001', 'connect:c1']);
    const deps = (): BookmarksHttpDeps => ({
      db: () => Promise.resolve(database.db),
      currentUser: () => Promise.resolve(signedIn ? { id: signedIn } : null),
      isPublished: (ref) => Promise.resolve(published.has(`${ref.endpoint}:${ref.contentId}`)),
    });
    const get = (query: string) =>
      handleBookmarksGet(new Request(`${ORIGIN}/api/bookmarks${query}`), deps());
    const postJson = (body: unknown, headers: Record<string, string> = {}) =>
      handleBookmarksPost(jsonPost(`${ORIGIN}/api/bookmarks`, body, headers), deps());
    const postForm = (body: string, referer = `${ORIGIN}/posts/post-001?from=list`) =>
      handleBookmarksPost(
        new Request(`${ORIGIN}/api/bookmarks`, {
          method: 'POST',
          headers: {
            host: 'localhost:3000',
            origin: ORIGIN,
            referer,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body,
        }),
        deps(),
      );

    it('answers an anonymous visitor with an empty list, never cached', async () => {
      signedIn = null;
      const response = await get('?items=posts:post-001,posts:post-002');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(await response.json()).toEqual({ bookmarked: [], signedIn: false });
    });

    it('answers the signed-in reader which items are bookmarked', async () => {
      signedIn = await newUser();
      await addBookmark(database.db, signedIn, post('post-001'));
      await addBookmark(database.db, signedIn, { endpoint: 'audios', contentId: 'post-002' });
      const response = await get(
        `?items=${encodeURIComponent('posts:post-001,posts:post-002,audios:post-002,posts:post-001')}`,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(await response.json()).toEqual({
        bookmarked: ['posts:post-001', 'audios:post-002'],
        signedIn: true,
      });
    });

    it('refuses a missing, malformed or too long items list with 400', async () => {
      signedIn = null;
      expect((await get('')).status).toBe(400);
      expect((await get('?items=')).status).toBe(400);
      const malformed = await get('?items=jobs:job-001');
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { message: string }).message).toMatch(/種類:ID/);
      const many = Array.from({ length: 101 }, (_, i) => `posts:p${i}`).join(',');
      const tooMany = await get(`?items=${many}`);
      expect(tooMany.status).toBe(400);
      expect(((await tooMany.json()) as { message: string }).message).toBe(
        '一度に確認できるのは 100 件までです。',
      );
      expect(
        (await get(`?items=${Array.from({ length: 100 }, (_, i) => `posts:p${i}`).join(',')}`))
          .status,
      ).toBe(200);
    });

    it('refuses a post from another site with 403', async () => {
      signedIn = await newUser();
      const response = await postJson(
        { endpoint: 'posts', contentId: 'post-001', action: 'add' },
        { origin: 'https://evil.example' },
      );
      expect(response.status).toBe(403);
      expect(await bookmarkedAmong(database.db, signedIn, [post('post-001')])).toEqual([]);
    });

    it('asks an anonymous visitor to sign in: 401 for fetch, a 303 to /login and back without JavaScript', async () => {
      signedIn = null;
      const json = await postJson({ endpoint: 'posts', contentId: 'post-001', action: 'add' });
      expect(json.status).toBe(401);
      expect(await json.json()).toMatchObject({ ok: false, message: SIGN_IN_MESSAGE });
      const plain = await postForm('endpoint=posts&contentId=post-001&action=add');
      expect(plain.status).toBe(303);
      expect(plain.headers.get('location')).toBe(
        `/login?next=${encodeURIComponent('/posts/post-001?from=list')}`,
      );
    });

    it('adds a published item and removes it; unknown or unpublished items answer 404', async () => {
      signedIn = await newUser();
      const added = await postJson({ endpoint: 'posts', contentId: 'post-001', action: 'add' });
      expect(added.status).toBe(200);
      expect(await added.json()).toMatchObject({
        ok: true,
        message: 'ブックマークに追加しました。',
      });
      expect(await bookmarkedAmong(database.db, signedIn, [post('post-001')])).toHaveLength(1);

      const missing = await postJson({ endpoint: 'posts', contentId: 'draft-9', action: 'add' });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ ok: false, message: NOT_FOUND_MESSAGE });

      const bad = await postJson({ endpoint: 'jobs', contentId: 'job-001', action: 'add' });
      expect(bad.status).toBe(400);
      expect((await postJson({ endpoint: 'posts', contentId: 'x', action: 'flip' })).status).toBe(
        400,
      );

      const removed = await postJson({
        endpoint: 'posts',
        contentId: 'post-001',
        action: 'remove',
      });
      expect(removed.status).toBe(200);
      expect(await bookmarkedAmong(database.db, signedIn, [post('post-001')])).toEqual([]);
    });

    it('removes a bookmark of an item that is no longer published', async () => {
      signedIn = await newUser();
      await addBookmark(database.db, signedIn, post('withdrawn'));
      const response = await postJson({
        endpoint: 'posts',
        contentId: 'withdrawn',
        action: 'remove',
      });
      expect(response.status).toBe(200);
      expect((await listBookmarks(database.db, signedIn, { limit: 5, offset: 0 })).total).toBe(0);
    });

    it('answers a plain form post with a 303 back to the page it came from', async () => {
      signedIn = await newUser();
      const added = await postForm('endpoint=connect&contentId=c1&action=add');
      expect(added.status).toBe(303);
      expect(added.headers.get('location')).toBe('/posts/post-001?from=list');
      expect(
        await bookmarkedAmong(database.db, signedIn, [{ endpoint: 'connect', contentId: 'c1' }]),
      ).toHaveLength(1);

      // From another site's page (or none), back to the item itself.
      const removed = await postForm(
        'endpoint=connect&contentId=c1&action=remove',
        'https://elsewhere.example/page',
      );
      expect(removed.status).toBe(303);
      expect(removed.headers.get('location')).toBe('/connect/c1');
      expect((await listBookmarks(database.db, signedIn, { limit: 5, offset: 0 })).total).toBe(0);
    });

    it('refuses an add past the cap with 400 and the Japanese message', async () => {
      signedIn = await newUser();
      await database.db.insert(bookmarks).values(
        Array.from({ length: BOOKMARK_LIMIT }, (_, i) => ({
          userId: signedIn!,
          endpoint: 'posts',
          contentId: `bulk-${i}`,
        })),
      );
      const response = await postJson({ endpoint: 'posts', contentId: 'post-001', action: 'add' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ ok: false, message: BOOKMARK_LIMIT_MESSAGE });
    });
  });
});
