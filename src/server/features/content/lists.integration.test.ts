import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { findEndpoint } from '@/lib/cms/model';
import type { Database } from '@/server/platform/db/client';
import { openRenderRecord } from '@/server/features/audience/render-record';
import { type ContentChange, onContentChange } from '@/server/services/cms/events';
import { affects } from '@/server/services/cms/reads';
import { inRequest } from '@/server/platform/http/request-context';
import { listFeaturedPosts, listJobs, listPartnerNames, listPosts, postStandfirst } from './lists';
import { type SiteContent, createSiteContent } from './site-content';
import { createContent, updateContent } from '@/server/services/cms/writes';

// The /posts filters (?category=, ?tag=) read through listPosts on the built-in content
// service with a real database: each filter narrows the list, both together intersect, and
// an id that does not exist (or could not exist) gives an empty list, never an error.

const state = vi.hoisted(() => ({ site: undefined as SiteContent | undefined }));
vi.mock('./site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).siteContentFromState(state, importOriginal),
);

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
  const database = testDatabase({ global: false });
  beforeAll(async () => {
    await seed(database.db);
    state.site = createSiteContent({ db: database.db });
  });
  afterAll(() => {
    state.site?.dispose();
    state.site = undefined;
  });
  return () => database;
}

describe('listPosts filters on the built-in content service', () => {
  const database = useSiteOn(async (db) => {
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
          description: `${id} の概要`,
          body: `<h2>見出し</h2><p>${'本文。'.repeat(id === 'a1' ? 900 : 1)}</p>`,
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

  it('counts each body for its card’s reading time, and leaves the body out', async () => {
    const all = await listPosts({});
    const a1 = all.items.find((p) => p.id === 'a1')!;
    expect(a1.characters).toBe(3 + 2_700);
    expect(a1).not.toHaveProperty('body');
    expect((await listPosts({ readingTime: false })).items[0]).not.toHaveProperty('characters');
  });

  it('reads of a card only what it shows, so a description edit renews no list showing it', async () => {
    /** What a render of `read` read, as the front server's record of it keeps it. */
    const readsOf = async (read: () => Promise<unknown>) => {
      const request = { requestId: 'render' };
      const record = openRenderRecord(request);
      await inRequest(request, read);
      return record.reads;
    };
    const list = await readsOf(() => listPosts({}));
    const standfirst = await readsOf(() => postStandfirst('a2'));
    expect(await postStandfirst('a2')).toBe('a2 の概要');

    // The change an editor's real edit sends to the caches (the store compares before and after).
    const changes: ContentChange[] = [];
    const stop = onContentChange((change) => changes.push(change));
    const edit = (body: Record<string, unknown>) =>
      updateContent(database().db, def('posts'), 'a2', body, { draft: false });
    try {
      await edit({ description: 'a2 の新しい概要' });
      await edit({ title: '記事 a2（改題）' });
    } finally {
      stop();
    }
    const [description, title] = changes;
    expect(description?.fields).toContain('description');
    // The list shows each card's title, and reads neither its description nor the dates an edit moves.
    expect(affects(list, description!)).toBe(false);
    expect(affects(list, title!)).toBe(true);
    // A lead story's standfirst depends on that post's description, and only on it.
    expect(affects(standfirst, description!)).toBe(true);
    expect(affects(standfirst, { ...description!, id: 'a1' })).toBe(false);
    expect(await postStandfirst('a2')).toBe('a2 の新しい概要');
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

describe('listJobs: the open listings of /jobs, filtered', () => {
  // 2026-11-24 12:00 in Japan. Closing dates are stored as the end of the day in Japan.
  const NOW = new Date('2026-11-24T03:00:00Z');
  const endOfDay = (day: string) => `${day}T23:59:59+09:00`;
  type JobSeed = {
    partner: string;
    type: string;
    occupation: string;
    prefecture: string | null;
    remote: string;
    closing: string | null;
    published: string;
  };
  /** id → conditions; published one day apart so the order is known. */
  const JOBS: Record<string, JobSeed> = {
    'tokyo-full': {
      partner: 'p-a',
      type: '正社員',
      occupation: 'エンジニア',
      prefecture: '東京都',
      remote: '出社',
      closing: '2027-01-31',
      published: '2026-11-01',
    },
    'tokyo-contract': {
      partner: 'p-b',
      type: '契約社員',
      occupation: 'エンジニア',
      prefecture: '東京都',
      remote: '一部リモート',
      closing: '2026-11-24', // closes today: still open all day
      published: '2026-11-02',
    },
    'osaka-full': {
      partner: 'p-b',
      type: '正社員',
      occupation: '企画・営業',
      prefecture: '大阪府',
      remote: '出社',
      closing: null, // no deadline yet: open
      published: '2026-11-03',
    },
    remote: {
      partner: 'p-a',
      type: '業務委託',
      occupation: 'ウェブ・UIデザイン',
      prefecture: null,
      remote: 'フルリモート',
      closing: '2026-12-15',
      published: '2026-11-04',
    },
    'closed-yesterday': {
      partner: 'p-a',
      type: '正社員',
      occupation: 'エンジニア',
      prefecture: '東京都',
      remote: '出社',
      closing: '2026-11-23',
      published: '2026-11-05',
    },
  };

  useSiteOn(async (db) => {
    for (const id of ['p-a', 'p-b'])
      await createContent(db, def('partners'), {
        id,
        body: { name: `企業 ${id}` },
        status: 'publish',
      });
    for (const [id, job] of Object.entries(JOBS)) {
      await createContent(db, def('jobs'), {
        id,
        body: {
          title: `求人 ${id}`,
          partner: job.partner,
          employmentType: [job.type],
          occupation: [job.occupation],
          prefecture: job.prefecture ? [job.prefecture] : [],
          remote: [job.remote],
          salaryUnit: ['年収'],
          salaryMin: 4_000_000,
          ...(job.closing ? { closingDate: endOfDay(job.closing) } : {}),
          publishedAt: `${job.published}T00:00:00Z`,
        },
        status: 'publish',
      });
    }
  });

  const list = (filters: Parameters<typeof listJobs>[0] = {}) => listJobs({ now: NOW, ...filters });

  it('lists the open listings newest first: closing today is in, closed yesterday is out', async () => {
    const all = await list();
    expect(all.items.map((j) => j.id)).toEqual([
      'remote',
      'osaka-full',
      'tokyo-contract',
      'tokyo-full',
    ]);
    expect(all.totalCount).toBe(4);
    expect(all.items[0]).toMatchObject({
      partner: { id: 'p-a', name: '企業 p-a' },
      remote: ['フルリモート'],
      salaryUnit: ['年収'],
      salaryMin: 4_000_000,
    });
  });

  it('lets a listing go by itself once its closing day is over in Japan', async () => {
    // 2026-11-25 00:00:01 in Japan (still the 24th in UTC): tokyo-contract has closed.
    const nextDay = await listJobs({ now: new Date('2026-11-24T15:00:01Z') });
    expect(nextDay.items.map((j) => j.id)).not.toContain('tokyo-contract');
    // A moment earlier it was still open.
    const lastMinute = await listJobs({ now: new Date('2026-11-24T14:59:00Z') });
    expect(lastMinute.items.map((j) => j.id)).toContain('tokyo-contract');
  });

  it('narrows by each filter and combines them', async () => {
    expect(ids(await list({ employmentType: '正社員' }))).toEqual(['osaka-full', 'tokyo-full']);
    expect(ids(await list({ occupation: 'エンジニア' }))).toEqual(['tokyo-contract', 'tokyo-full']);
    expect(ids(await list({ location: '東京都' }))).toEqual(['tokyo-contract', 'tokyo-full']);
    expect(ids(await list({ location: 'remote' }))).toEqual(['remote']);
    expect(ids(await list({ partner: 'p-b' }))).toEqual(['osaka-full', 'tokyo-contract']);
    expect(ids(await list({ employmentType: '正社員', location: '東京都' }))).toEqual([
      'tokyo-full',
    ]);
    expect(
      ids(await list({ partner: 'p-b', occupation: 'エンジニア', location: '東京都' })),
    ).toEqual(['tokyo-contract']);
    expect(ids(await list({ partner: 'p-a', location: '大阪府' }))).toEqual([]);
  });

  it('answers an unknown partner with an empty list, and drops values outside the vocabularies', async () => {
    const none = await list({ partner: 'no-such-partner' });
    expect(none.items).toEqual([]);
    expect(none.totalPages).toBe(1);
    expect((await list({ partner: '../x[or]id[exists]' })).items).toEqual([]);
    // A value that is not an option is not a filter (and never reaches the filter's syntax).
    const bad = await list({
      employmentType: '正社員[or]title[exists]' as never,
      location: 'Tokyo' as never,
    });
    expect(bad.totalCount).toBe(4);
  });

  it('pages the filtered list', async () => {
    const first = await list({ location: '東京都', size: 1 });
    expect([first.totalCount, first.totalPages, ids(first)]).toEqual([2, 2, ['tokyo-contract']]);
    const second = await list({ location: '東京都', size: 1, page: 2 });
    expect(ids(second)).toEqual(['tokyo-full']);
  });

  it('names the partners for the company filter, in Japanese order', async () => {
    expect(await listPartnerNames()).toEqual([
      { id: 'p-a', name: '企業 p-a' },
      { id: 'p-b', name: '企業 p-b' },
    ]);
  });
});
