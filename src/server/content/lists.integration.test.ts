import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/server/cms/model';
import { createContent, updateContent } from '@/server/cms/store';
import type { Database } from '@/server/db/client';
import { createTestDatabase } from '@/server/db/testing/test-database';
import { listFeaturedPosts, listPosts } from './lists';
import type * as SiteContentModule from './site-content';
import { type SiteContent, createSiteContent } from './site-content';

// The /posts filters (?category=, ?tag=) read through listPosts on the built-in content
// service with a real database: each filter narrows the list, both together intersect, and
// an id that does not exist (or could not exist) gives an empty list, never an error.

const state = vi.hoisted(() => ({ site: undefined as SiteContent | undefined }));
vi.mock('./site-content', async (importOriginal) => {
  const original = await importOriginal<typeof SiteContentModule>();
  return {
    ...original,
    siteContent: () => {
      if (!state.site) throw new Error('the test database is not open yet');
      return state.site.client;
    },
  };
});

const def = (endpoint: string) => findEndpoint(endpoint)!;

/** id → [category, tags] */
const POSTS: Record<string, [string | null, string[]]> = {
  a1: ['issue-a', ['city']],
  a2: ['issue-a', ['timber']],
  a3: ['issue-a', ['city', 'timber']],
  b1: ['issue-b', ['city']],
  b2: ['issue-b', []],
  n1: [null, ['timber']],
};

const ids = (page: { items: { id: string }[] }) => page.items.map((p) => p.id).sort();

/** A fresh database with `seed` written into it, read by the site's content client. */
function useSiteOn(seed: (db: Database['db']) => Promise<void>): () => Database {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seed(database.db);
    state.site = createSiteContent({ db: database.db });
  });
  afterAll(async () => {
    state.site?.dispose();
    state.site = undefined;
    await database.close();
  });
  return () => database;
}

describe('listPosts filters on the built-in content service', () => {
  useSiteOn(async (db) => {
    for (const [id, name] of [
      ['issue-a', '特集A'],
      ['issue-b', '特集B'],
    ] as const)
      await createContent(db, def('categories'), { id, body: { name }, status: 'publish' });
    for (const [id, name] of [
      ['city', '都市'],
      ['timber', '木材'],
      ['unused', '未使用'],
    ] as const)
      await createContent(db, def('tags'), { id, body: { name }, status: 'publish' });
    for (const [id, [category, tags]] of Object.entries(POSTS)) {
      await createContent(db, def('posts'), {
        id,
        body: {
          title: `記事 ${id}`,
          isPublicPreview: false,
          ...(category ? { category } : {}),
          tags,
        },
        status: 'publish',
      });
    }
  });

  it('lists every post without a filter', async () => {
    const all = await listPosts({});
    expect(all.totalCount).toBe(6);
    expect(ids(all)).toEqual(Object.keys(POSTS).sort());
  });

  it('narrows to one category', async () => {
    const a = await listPosts({ category: 'issue-a' });
    expect(ids(a)).toEqual(['a1', 'a2', 'a3']);
    expect(a.totalCount).toBe(3);
    expect(a.items.every((p) => p.category?.id === 'issue-a')).toBe(true);
    expect(ids(await listPosts({ category: 'issue-b' }))).toEqual(['b1', 'b2']);
  });

  it('narrows to one tag', async () => {
    expect(ids(await listPosts({ tag: 'city' }))).toEqual(['a1', 'a3', 'b1']);
    expect(ids(await listPosts({ tag: 'timber' }))).toEqual(['a2', 'a3', 'n1']);
  });

  it('combines a category and a tag', async () => {
    expect(ids(await listPosts({ category: 'issue-a', tag: 'city' }))).toEqual(['a1', 'a3']);
    expect(ids(await listPosts({ category: 'issue-b', tag: 'timber' }))).toEqual([]);
  });

  it('gives an empty list, not an error, for an unknown or malformed id', async () => {
    for (const options of [
      { category: 'no-such-issue' },
      { tag: 'no-such-tag' },
      { tag: 'unused' },
      { category: 'issue-a', tag: 'no-such-tag' },
      { category: '../../etc', tag: '"]; drop' },
      { category: 'x'.repeat(100) },
    ]) {
      const page = await listPosts(options);
      expect(page.items, JSON.stringify(options)).toEqual([]);
      expect(page.totalCount).toBe(0);
      expect(page.totalPages).toBe(1);
    }
  });

  it('pages a filtered list', async () => {
    const first = await listPosts({ tag: 'timber', size: 2 });
    expect(first.totalCount).toBe(3);
    expect(first.totalPages).toBe(2);
    const second = await listPosts({ tag: 'timber', size: 2, page: 2 });
    expect(second.items).toHaveLength(1);
    expect(new Set([...ids(first), ...ids(second)])).toEqual(new Set(['a2', 'a3', 'n1']));
  });
});

describe('listFeaturedPosts: the 注目記事 editors chose for the home page', () => {
  const database = useSiteOn(async (db) => {
    for (const id of ['p1', 'p2', 'p3'])
      await createContent(db, def('posts'), {
        id,
        body: { title: `記事 ${id}`, isPublicPreview: false },
        status: 'publish',
      });
    await createContent(db, def('posts'), {
      id: 'draft',
      body: { title: '下書き', isPublicPreview: false },
      status: 'draft',
    });
  });

  it('is empty while there is no home object', async () => {
    expect(await listFeaturedPosts()).toEqual([]);
  });

  it('keeps the order editors gave and drops what is not published', async () => {
    // Written behind the client's back: the change event must drop what it has cached.
    await updateContent(
      database().db,
      def('home'),
      '',
      { featuredPosts: ['p3', 'draft', 'p1'] },
      { draft: false },
    );
    const featured = await listFeaturedPosts();
    expect(featured.map((p) => [p.id, p.title])).toEqual([
      ['p3', '記事 p3'],
      ['p1', '記事 p1'],
    ]);
  });
});
