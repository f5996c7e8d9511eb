import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { cmsContents } from '@/server/platform/db/schema';
import { findDraftKey, getContent } from './store';
import { CmsApiError } from './errors';
import { type ApiCall, apiClient } from '@test-support/content-api-client';
import { CONTENT_MODEL, type EndpointDef, type FieldDef, findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import {
  deleteContent,
  publishContent,
  scheduleContent,
  unpublishContent,
  updateContent,
} from './writes';

// The conformance suite writes fast; the rate limit has its own test.
process.env.CMS_RATE_LIMIT_WRITE = '100000';
process.env.CMS_RATE_LIMIT_READ = '100000';

type Item = Record<string, unknown> & { id: string };
type List = { contents: Item[]; totalCount: number; offset: number; limit: number };

describe('content API conformance', () => {
  const database = testDatabase({ global: false });
  let api: ApiCall;
  let readOnly: ApiCall;
  let allDrafts: ApiCall;
  const postIds: string[] = [];

  const countRows = async () => (await database.db.select({ n: count() }).from(cmsContents))[0]!.n;

  beforeAll(async () => {
    api = (await apiClient(database.db)).call;
    readOnly = (await apiClient(database.db, ['GET'])).call;
    allDrafts = (await apiClient(database.db, ['GET', 'drafts'])).call;

    await api('PUT', 'categories/architecture', { body: { name: '建築' } });
    await api('PUT', 'categories/graphic', { body: { name: 'グラフィック' } });
    await api('PUT', 'writers/w1', { body: { name: '山田 花子', role: '編集者' } });
    await api('PUT', 'writers/w2', { body: { name: '佐藤 太郎' } });
    await api('PUT', 'tags/t1', { body: { name: '展覧会' } });
    for (let i = 1; i <= 15; i++) {
      const res = await api('PUT', `posts/p${String(i).padStart(2, '0')}`, {
        body: {
          title: i === 3 ? '現代建築の潮流を読む' : `デザインの記事 ${i}`,
          description: i % 2 ? 'グラフィックデザイナーへのインタビュー' : 'Bauhaus から考える',
          body: `<p>本文 ${i}。建築とデザインの話。</p>`,
          isPublicPreview: i % 5 === 0,
          category: i % 3 === 0 ? 'architecture' : 'graphic',
          writers: i % 2 ? ['w1'] : ['w1', 'w2'],
          tags: i === 1 ? ['t1'] : [],
          seriesOrder: i,
          format: [i % 4 === 0 ? 'insight' : 'article'],
          publishedAt: `2026-01-${String(i).padStart(2, '0')}T00:00:00.000Z`,
        },
      });
      expect(res.status).toBe(201);
      postIds.push((res.body as { id: string }).id);
    }
  });

  describe('authentication and permissions', () => {
    it('answers 401 without a key or with an unknown key', async () => {
      for (const key of [null, 'cms_wrong']) {
        const res = await api('GET', 'posts', { key });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'X-MICROCMS-API-KEY header is invalid.' });
      }
    });

    it('answers 400 "{METHOD} is forbidden." for a key without the permission, and writes nothing', async () => {
      const before = await countRows();
      expect((await readOnly('POST', 'posts', { body: { title: 'x' } })).body).toEqual({
        message: 'POST is forbidden.',
      });
      expect((await readOnly('PUT', 'posts/x1', { body: { title: 'x' } })).body).toEqual({
        message: 'PUT is forbidden.',
      });
      expect((await readOnly('PATCH', 'posts/p01', { body: { title: 'x' } })).body).toEqual({
        message: 'PATCH is forbidden.',
      });
      const del = await readOnly('DELETE', 'posts/p01');
      expect(del.status).toBe(400);
      expect(del.body).toEqual({ message: 'DELETE is forbidden.' });
      const writeOnly = (await apiClient(database.db, ['POST'])).call;
      expect((await writeOnly('GET', 'posts')).body).toEqual({ message: 'GET is forbidden.' });
      expect(await countRows()).toBe(before);
    });
  });

  describe('reading', () => {
    it('lists with the default limit 10, newest first, and the microCMS envelope', async () => {
      const res = await readOnly('GET', 'posts');
      expect(res.status).toBe(200);
      const list = res.body as List;
      expect(list.totalCount).toBe(15);
      expect(list.limit).toBe(10);
      expect(list.offset).toBe(0);
      expect(list.contents).toHaveLength(10);
      expect(list.contents[0]!.id).toBe('p15');
      expect(res.headers.get('x-current-date-time')).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    });

    it('returns system fields as microCMS sets them', async () => {
      const item = (await readOnly('GET', 'posts/p03')).body as Item;
      expect(Object.keys(item).slice(0, 5)).toEqual([
        'id',
        'createdAt',
        'updatedAt',
        'publishedAt',
        'revisedAt',
      ]);
      expect(item.publishedAt).toBe('2026-01-03T00:00:00.000Z');
      expect(item.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(item.tags).toEqual([]);
      expect(item.isPublicPreview).toBe(false);
      expect(item.format).toEqual(['article']);
    });

    it('supports limit=0 for the count, offset, and rejects bad values', async () => {
      const zero = (await readOnly('GET', 'posts?limit=0')).body as List;
      expect(zero).toMatchObject({ contents: [], totalCount: 15, limit: 0 });
      const page = (await readOnly('GET', 'posts?limit=5&offset=12')).body as List;
      expect(page.contents.map((c) => c.id)).toEqual(['p03', 'p02', 'p01']);
      expect((await readOnly('GET', 'posts?limit=1000')).status).toBe(200);
      for (const [query, message] of [
        ['limit=1001', "Invalid 'limit' value."],
        ['limit=-1', "Invalid 'limit' value."],
        ['limit=abc', "Invalid 'limit' value."],
        ['offset=-3', "Invalid 'offset' value."],
        ['depth=4', 'invalid parameter.'],
        ['filters=title[bogus]x', 'invalid parameter.'],
        ['orders=nosuchfield', 'invalid parameter.'],
      ]) {
        const res = await readOnly('GET', `posts?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body, query).toEqual({ message });
      }
      expect(((await readOnly('GET', 'posts?limit=')).body as List).limit).toBe(10); // empty = absent
    });

    it('orders by system dates and sortable fields, ascending and descending', async () => {
      const asc = (await readOnly('GET', 'posts?orders=publishedAt&limit=3&fields=id'))
        .body as List;
      expect(asc.contents.map((c) => c.id)).toEqual(['p01', 'p02', 'p03']);
      const byNumber = (await readOnly('GET', 'posts?orders=-seriesOrder&limit=2&fields=id'))
        .body as List;
      expect(byNumber.contents.map((c) => c.id)).toEqual(['p15', 'p14']);
      const multi = (
        await readOnly('GET', 'posts?orders=description,-publishedAt&limit=2&fields=id')
      ).body as List;
      expect(multi.contents.map((c) => c.id)).toEqual(['p14', 'p12']);
    });

    it.each([
      ['isPublicPreview[not_equals]true', 12],
      ['isPublicPreview[equals]true', 3],
      ['category[equals]architecture', 5],
      ['category[not_equals]architecture', 10],
      ['writers[contains]w2', 7],
      ['writers[not_contains]w2', 8],
      ['tags[exists]', 1],
      ['tags[not_exists]', 14],
      ['title[contains]建築', 1],
      ['title[not_contains]記事', 1],
      ['title[begins_with]デザインの記事 1', 7],
      ['title[equals]デザインの記事 7', 1],
      ['seriesOrder[less_than]4', 3],
      ['seriesOrder[greater_than]13', 2],
      ['seriesOrder[equals]5', 1],
      ['publishedAt[less_than]2026-01-03T00:00:00Z', 2],
      ['publishedAt[greater_than]2026-01-14T00:00:00.000Z', 1],
      ['publishedAt[begins_with]2026-01-1', 6],
      ['format[contains]insight', 3],
      ['coverImage[not_exists]', 15],
      ['body[contains]本文 1', 7],
      ['category[equals]architecture[and]isPublicPreview[equals]true', 1],
      ['category[equals]architecture[or]isPublicPreview[equals]true', 7],
      ['(category[equals]architecture[or]tags[exists])[and]writers[contains]w2', 2],
      ['id[equals]p09', 1],
    ])('filters %s → totalCount %i', async (filters, expected) => {
      const res = await readOnly('GET', `posts?filters=${encodeURIComponent(filters)}&limit=0`);
      expect(res.status).toBe(200);
      expect((res.body as List).totalCount).toBe(expected);
    });

    it('rejects a filter value of the wrong type with 400', async () => {
      for (const filters of [
        'seriesOrder[equals]abc',
        'isPublicPreview[equals]yes',
        'publishedAt[less_than]yesterday',
        'coverImage[equals]x',
        'body[equals]x',
      ]) {
        const res = await readOnly('GET', `posts?filters=${encodeURIComponent(filters)}`);
        expect(res.status, filters).toBe(400);
        expect(res.body).toEqual({ message: 'invalid parameter.' });
      }
    });

    it('selects ids and fields, with dot paths into references', async () => {
      const res = (
        await readOnly(
          'GET',
          'posts?ids=p02,p05,nothere&fields=id,title,writers.name&orders=publishedAt',
        )
      ).body as List;
      expect(res.totalCount).toBe(2);
      expect(res.contents).toEqual([
        {
          id: 'p02',
          title: 'デザインの記事 2',
          writers: [{ name: '山田 花子' }, { name: '佐藤 太郎' }],
        },
        { id: 'p05', title: 'デザインの記事 5', writers: [{ name: '山田 花子' }] },
      ]);
    });

    it('expands references to the requested depth and leaves {id} beyond it', async () => {
      await api('PATCH', 'posts/p02', { body: { relatedPosts: ['p01'] } });
      await api('PATCH', 'posts/p01', { body: { relatedPosts: ['p03'] } });
      const d0 = (await readOnly('GET', 'posts/p02?depth=0&fields=category,relatedPosts'))
        .body as Item;
      expect(d0).toEqual({ category: { id: 'graphic' }, relatedPosts: [{ id: 'p01' }] });
      const d1 = (
        await readOnly(
          'GET',
          'posts/p02?fields=category.name,relatedPosts.id,relatedPosts.relatedPosts',
        )
      ).body as Item;
      expect(d1).toEqual({
        category: { name: 'グラフィック' },
        relatedPosts: [{ id: 'p01', relatedPosts: [{ id: 'p03' }] }],
      });
      const d2 = (await readOnly('GET', 'posts/p02?depth=2&fields=relatedPosts.relatedPosts.title'))
        .body as Item;
      expect(d2).toEqual({ relatedPosts: [{ relatedPosts: [{ title: '現代建築の潮流を読む' }] }] });
    });

    it('answers 404 without a body for an unknown endpoint or id', async () => {
      for (const path of ['nothing', 'posts/nothing', 'nothing/p01']) {
        const res = await readOnly('GET', path);
        expect(res.status).toBe(404);
        expect(res.text).toBe('');
      }
    });

    it('searches with q, Japanese-aware, newest published first', async () => {
      const res = (
        await readOnly('GET', `posts?q=${encodeURIComponent('建築')}&fields=id&limit=20`)
      ).body as List;
      expect(res.totalCount).toBe(15); // every body mentions 建築
      const newest = (await readOnly('GET', 'posts?orders=-publishedAt&fields=id&limit=20'))
        .body as List;
      expect(res.contents.map((c) => c.id)).toEqual(newest.contents.map((c) => c.id));
      const narrow = (
        await readOnly('GET', `posts?q=${encodeURIComponent('潮流　建築')}&fields=id`)
      ).body as List;
      expect(narrow.contents.map((c) => c.id)).toEqual(['p03']);
      const latin = (
        await readOnly('GET', `posts?q=${encodeURIComponent('ＢＡＵＨＡＵＳ')}&limit=0`)
      ).body as List;
      expect(latin.totalCount).toBe(7);
      const none = (await readOnly('GET', `posts?q=${encodeURIComponent('存在しない語')}&limit=0`))
        .body as List;
      expect(none.totalCount).toBe(0);
    });
  });

  describe('writing', () => {
    it('creates with POST (201 {id}) and reads it back; sanitises rich text', async () => {
      expect(((await readOnly('GET', 'posts?limit=0')).body as List).totalCount).toBe(15);
      const res = await api('POST', 'posts', {
        body: {
          title: '新しい記事',
          body: '<p onclick="x()">本文<script>alert(1)</script><a href="javascript:alert(1)">link</a></p>',
        },
      });
      expect(res.status).toBe(201);
      const { id } = res.body as { id: string };
      expect(id).toMatch(/^[a-z0-9]{12}$/);
      // Counts (cached by filter) follow every change.
      expect(((await readOnly('GET', 'posts?limit=0')).body as List).totalCount).toBe(16);
      const item = (await readOnly('GET', `posts/${id}`)).body as Item;
      expect(item.title).toBe('新しい記事');
      expect(String(item.body)).not.toMatch(/script|onclick|javascript:/i);
      expect(String(item.body)).toContain('本文');
      expect((await api('DELETE', `posts/${id}`)).status).toBe(202);
      expect(((await readOnly('GET', 'posts?limit=0')).body as List).totalCount).toBe(15);
    });

    it('keeps a POST ?status=draft unpublished, readable with its draftKey only', async () => {
      const { id } = (await api('POST', 'posts?status=draft', { body: { title: '下書き' } }))
        .body as { id: string };
      expect((await readOnly('GET', `posts/${id}`)).status).toBe(404);
      const [row] = await database.db.select().from(cmsContents).where(eq(cmsContents.id, id));
      const draft = (await readOnly('GET', `posts/${id}?draftKey=${row!.draftKey}`)).body as Item;
      expect(draft.title).toBe('下書き');
      expect(draft).not.toHaveProperty('publishedAt');
      expect((await readOnly('GET', `posts/${id}?draftKey=wrong`)).status).toBe(404);
      const listed = (await allDrafts('GET', `posts?ids=${id}`)).body as List;
      expect(listed.totalCount).toBe(1);
      expect(((await readOnly('GET', `posts?ids=${id}`)).body as List).totalCount).toBe(0);
      await publishContent(database.db, findEndpoint('posts')!, id);
      expect(((await readOnly('GET', `posts/${id}`)).body as Item).title).toBe('下書き');
      await api('DELETE', `posts/${id}`);
    });

    it('creates with PUT and a chosen id, refusing an existing id or a bad one', async () => {
      expect((await api('PUT', 'tags/t-new', { body: { name: '新' } })).status).toBe(201);
      expect((await api('PUT', 'tags/t-new', { body: { name: '新' } })).body).toEqual({
        message: 'Content is already exists. If you want update, please use PATCH request.',
      });
      expect((await api('PUT', 'tags/bad%20id', { body: { name: 'x' } })).body).toEqual({
        message: 'Invalid content id format.',
      });
    });

    it('updates with PATCH (200 {id}); ?status=draft leaves the published version as it was', async () => {
      const res = await api('PATCH', 'posts/p04', { body: { title: '改題' } });
      expect(res).toMatchObject({ status: 200, body: { id: 'p04' } });
      expect(((await readOnly('GET', 'posts/p04')).body as Item).title).toBe('改題');
      await api('PATCH', 'posts/p04?status=draft', { body: { title: '次の改題' } });
      expect(((await readOnly('GET', 'posts/p04')).body as Item).title).toBe('改題');
      const [row] = await database.db.select().from(cmsContents).where(eq(cmsContents.id, 'p04'));
      expect(row!.status).toBe('PUBLISH_AND_DRAFT');
      expect(
        ((await readOnly('GET', `posts/p04?draftKey=${row!.draftKey}`)).body as Item).title,
      ).toBe('次の改題');
      expect((await api('PATCH', 'posts/nothere', { body: { title: 'x' } })).body).toEqual({
        message: 'Content is not exists.',
      });
    });

    it('clears a field with its empty value on PATCH', async () => {
      await api('PATCH', 'posts/p06', { body: { tags: ['t1'], seriesOrder: 60 } });
      await api('PATCH', 'posts/p06', { body: { tags: [], seriesOrder: null } });
      const item = (await readOnly('GET', 'posts/p06')).body as Item;
      expect(item.tags).toEqual([]);
      expect(item).not.toHaveProperty('seriesOrder');
    });

    it.each([
      [{ title: 'x', nope: 1 }, "'nope' is unexpected key."],
      [{ title: 'x', createdAt: '2020-01-01' }, "'createdAt' is unexpected key."],
      [{ title: 123 }, "'title' has unexpected data type."],
      [{ description: 'no title' }, "'title' field required error."],
      [{}, 'Please include one or more user-defined fields.'],
      [{ title: 'x', seriesOrder: 'one' }, "'seriesOrder' has unexpected data type."],
      [
        { title: 'x', category: 'nosuch' },
        "Referenced content does not exist: 'nosuch' in 'categories'.",
      ],
      [
        { title: 'x', publishedAt: 'tomorrow' },
        "'publishedAt' field error. Please fix date format.",
      ],
      // Days and times that do not exist: refused, never rolled over to another day.
      ...['2026-02-30', '2026-04-31T09:00:00+09:00', '2026-13-45', '2026-01-01T24:00Z'].map(
        (publishedAt): [object, string] => [
          { title: 'x', publishedAt },
          "'publishedAt' field error. Please fix date format.",
        ],
      ),
      [{ title: 'x'.repeat(201) }, "'title' is too long. Please input 200 characters or less."],
      [{ title: 'x', format: ['poem'] }, "'format' field error. 'poem' is not an option."],
    ])('rejects %j with a message naming the field, writing nothing', async (body, message) => {
      const before = await countRows();
      const res = await api('POST', 'posts', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
      expect(await countRows()).toBe(before);
    });

    it('rejects an empty or malformed body', async () => {
      expect((await api('POST', 'posts', { rawBody: '' })).body).toEqual({
        message: 'Request body is empty.',
      });
      expect((await api('POST', 'posts', { rawBody: '{"title":' })).body).toEqual({
        message: 'Syntax error.',
      });
      expect((await api('POST', 'posts', { rawBody: '[1,2]' })).body).toEqual({
        message: 'Syntax error.',
      });
      // Text PostgreSQL cannot store is refused up front, never a database error.
      for (const rawBody of ['{"title":"a\\u0000b"}', '{"title":"\\ud800"}']) {
        expect((await api('POST', 'posts', { rawBody })).body).toEqual({
          message: 'Syntax error.',
        });
      }
    });

    it('deletes with 202 "Accepted", but not content others refer to', async () => {
      const referenced = await api('DELETE', 'writers/w2');
      expect(referenced).toMatchObject({
        status: 400,
        body: { message: 'The content is referenced.' },
      });
      const { id } = (await api('POST', 'tags', { body: { name: '一時' } })).body as { id: string };
      const res = await api('DELETE', `tags/${id}`);
      expect(res.status).toBe(202);
      expect(res.text).toBe('Accepted');
      expect((await api('DELETE', `tags/${id}`)).body).toEqual({
        message: 'Content is not exists.',
      });
    });
  });

  describe('content ids', () => {
    // The attack run's finding: a NUL byte reached PostgreSQL (text cannot hold one) as a 500.
    const BAD_IDS = ['%00', 'p01%00', '%00p01', 'x'.repeat(51), '%E3%81%82', 'a.b', 'a%20b'];

    it('answers 404 to a read of an id that cannot exist, with any key', async () => {
      for (const id of BAD_IDS)
        for (const call of [api, readOnly, allDrafts]) {
          const res = await call('GET', `posts/${id}`);
          expect(res.status, id).toBe(404);
          expect((await call('GET', `posts/${id}?draftKey=abc`)).status, id).toBe(404);
        }
    });

    it('answers 400 to a write of an id that cannot exist, and writes nothing', async () => {
      const before = await countRows();
      for (const id of BAD_IDS) {
        for (const method of ['PATCH', 'DELETE', 'PUT']) {
          const res = await api(method, `posts/${id}`, { body: { title: 'x' } });
          expect(res.status, `${method} ${id}`).toBe(400);
        }
      }
      expect(await countRows()).toBe(before);
    });

    it('refuses such an id in every write of the store, never a database error', async () => {
      const def = findEndpoint('posts')!;
      const ctx = { actor: 'system' };
      for (const write of [
        () => publishContent(database.db, def, 'p\u0000', ctx),
        () => unpublishContent(database.db, def, 'p\u0000', ctx),
        () => scheduleContent(database.db, def, 'p\u0000', new Date(), ctx),
        () => updateContent(database.db, def, '\u0000', { title: 'x' }, { draft: false }, ctx),
        () => deleteContent(database.db, def, '\u0000', ctx),
      ])
        await expect(write()).rejects.toBeInstanceOf(CmsApiError);
      expect(await findDraftKey(database.db, 'posts', '\u0000')).toBeNull();
      await expect(
        getContent(database.db, def, '\u0000', { depth: 1 }, { kind: 'allDrafts' }),
      ).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('object endpoints', () => {
    it('are created by the first PATCH and read without an id', async () => {
      expect((await readOnly('GET', 'about')).status).toBe(404);
      expect(
        (
          await api('PATCH', 'about', {
            body: { title: 'このサイトについて', body: '<p>ようこそ</p>' },
          })
        ).status,
      ).toBe(200);
      const about = (await readOnly('GET', 'about')).body as Record<string, unknown>;
      expect(about).not.toHaveProperty('id');
      expect(about).toMatchObject({ title: 'このサイトについて', body: '<p>ようこそ</p>' });
      expect((await api('POST', 'about', { body: { title: 'x' } })).status).toBe(400);
      expect((await readOnly('GET', 'about/anything')).status).toBe(404);
    });
  });

  describe('round trip: what a read answers can be written back, as on microCMS', () => {
    const SYSTEM = ['id', 'createdAt', 'updatedAt', 'publishedAt', 'revisedAt'];
    const withoutSystem = (item: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(item).filter(([key]) => !SYSTEM.includes(key)));
    // A published item of each endpoint a reference may point to.
    const REFERENCED: Record<string, string> = {
      categories: 'architecture',
      tags: 't1',
      writers: 'w1',
      posts: 'p01',
      series: 'rt-series',
      partners: 'rt-partner',
    };

    /** A value of every field, as a client would write it. */
    function fullValue(field: FieldDef): unknown {
      switch (field.kind) {
        case 'text':
          return field.urlPrefixes ? `${field.urlPrefixes[0]}example.com/rt` : '文字列';
        case 'textArea':
          return '一行目\n二行目';
        case 'richEditor':
          return `<p>導入</p>${MEMBERS_DIVIDER.html}<p>続き<strong>強調</strong></p>`;
        case 'number':
          return 7;
        case 'boolean':
          return true;
        case 'date':
          return '2027-03-31T15:00:00.000Z';
        case 'select':
          return [field.options![0]];
        case 'media':
          return { url: '/uploads/demo/rt.jpg', width: 1200, height: 800, alt: '代替テキスト' };
        case 'file':
          return { url: '/media/protected/demo/rt.wav', fileSize: 1234 };
        case 'relation':
          return REFERENCED[field.endpoint!];
        case 'relationList':
          return [REFERENCED[field.endpoint!]];
        case 'custom':
          return Object.fromEntries((field.fields ?? []).map((f) => [f.id, fullValue(f)]));
      }
    }
    /** How microCMS's PATCH empties a field. */
    const EMPTY_ON_PATCH: Record<FieldDef['kind'], unknown> = {
      text: '',
      textArea: '',
      richEditor: '',
      media: '',
      date: '',
      file: '',
      select: [],
      relationList: [],
      boolean: null,
      number: null,
      relation: {},
      custom: { fieldId: 'seo' },
    };
    const required = (def: EndpointDef) =>
      Object.fromEntries(def.fields.filter((f) => f.required).map((f) => [f.id, fullValue(f)]));
    /** Every field set; a post with a price is a members' post (a public one takes none). */
    const full = (def: EndpointDef) => {
      const item = Object.fromEntries(def.fields.map((f) => [f.id, fullValue(f)]));
      return 'price' in item ? { ...item, price: 300, isPublicPreview: false } : item;
    };
    const path = (def: EndpointDef, id: string) =>
      def.kind === 'list' ? `${def.endpoint}/${id}` : def.endpoint;

    beforeAll(async () => {
      expect((await api('PUT', 'series/rt-series', { body: { title: '連載' } })).status).toBe(201);
      expect((await api('PUT', 'partners/rt-partner', { body: { name: '企業' } })).status).toBe(
        201,
      );
    });

    /** GET, write the answer back with PATCH (and PUT under a new id): nothing changes. */
    async function expectRoundTrip(def: EndpointDef, id: string, query = '') {
      const answer = (await readOnly('GET', `${path(def, id)}${query}`)).body as Item;
      const patched = await api('PATCH', path(def, id), { body: withoutSystem(answer) });
      expect(patched, `PATCH ${def.endpoint}`).toMatchObject({ status: 200 });
      const after = (await readOnly('GET', `${path(def, id)}${query}`)).body as Item;
      expect(withoutSystem(after), `PATCH ${def.endpoint}`).toEqual(withoutSystem(answer));
      if (def.kind === 'list') {
        const copy = `${id}-copy${query ? '0' : ''}`;
        const put = await api('PUT', `${def.endpoint}/${copy}`, { body: withoutSystem(answer) });
        expect(put, `PUT ${def.endpoint}`).toMatchObject({ status: 201 });
        const copied = (await readOnly('GET', `${def.endpoint}/${copy}${query}`)).body as Item;
        expect(withoutSystem(copied), `PUT ${def.endpoint}`).toEqual(withoutSystem(answer));
      }
      return answer;
    }

    it.each(CONTENT_MODEL.map((def) => [def.endpoint, def] as const))(
      '%s: an item with every field empty reads as microCMS reads it and writes back unchanged',
      async (_, def) => {
        const id = 'rt-empty';
        if (def.kind === 'list') {
          expect((await api('PUT', path(def, id), { body: required(def) })).status).toBe(201);
        } else {
          // An object exists once written: empty what it has.
          await api('PATCH', path(def, id), { body: full(def) });
          const empties = def.fields
            .filter((f) => !f.required)
            .map((f) => [f.id, EMPTY_ON_PATCH[f.kind]]);
          const res = await api('PATCH', path(def, id), { body: Object.fromEntries(empties) });
          expect(res.status).toBe(200);
        }
        const answer = await expectRoundTrip(def, id);
        for (const field of def.fields) {
          if (field.required) continue;
          const expected = {
            select: [],
            relationList: [],
            boolean: false,
            relation: null,
            custom: null,
          }[field.kind as string];
          if (expected === undefined) expect(answer, field.id).not.toHaveProperty(field.id);
          else expect(answer[field.id], field.id).toEqual(expected);
        }
      },
    );

    it.each(CONTENT_MODEL.map((def) => [def.endpoint, def] as const))(
      '%s: an item with every field set writes back unchanged, references expanded or not',
      async (_, def) => {
        const id = 'rt-full';
        const write = def.kind === 'list' ? 'PUT' : 'PATCH';
        expect((await api(write, path(def, id), { body: full(def) })).status).toBeLessThan(300);
        const answer = await expectRoundTrip(def, id);
        for (const field of def.fields) expect(answer[field.id], field.id).toBeDefined();
        await expectRoundTrip(def, id, '?depth=0');
      },
    );

    it('empties every field with null, as microCMS reads an empty field, on PATCH and on create', async () => {
      const def = findEndpoint('posts')!;
      const nulls = Object.fromEntries(
        def.fields.filter((f) => !f.required).map((f) => [f.id, null]),
      );
      await api('PUT', 'posts/rt-nulls', { body: full(def) });
      expect((await api('PATCH', 'posts/rt-nulls', { body: nulls })).status).toBe(200);
      const emptied = withoutSystem((await readOnly('GET', 'posts/rt-nulls')).body as Item);
      const created = await api('PUT', 'posts/rt-nulls-2', {
        body: { ...required(def), ...nulls },
      });
      expect(created.status).toBe(201);
      expect(withoutSystem((await readOnly('GET', 'posts/rt-nulls-2')).body as Item)).toEqual(
        emptied,
      );
      expect(emptied).toEqual({
        title: '文字列',
        isPublicPreview: false,
        format: [],
        category: null,
        series: null,
        tags: [],
        writers: [],
        relatedPosts: [],
        seo: null,
      });
      // A required field cannot be emptied.
      expect((await api('PATCH', 'posts/rt-nulls', { body: { title: null } })).body).toEqual({
        message: "'title' field required error.",
      });
    });

    it('reads text stored empty by older writes as absent, so it too writes back unchanged', async () => {
      await api('PUT', 'posts/rt-legacy', { body: { title: '旧' } });
      const [row] = await database.db
        .select({ data: cmsContents.data })
        .from(cmsContents)
        .where(eq(cmsContents.id, 'rt-legacy'));
      await database.db
        .update(cmsContents)
        .set({ data: { ...row!.data, description: '', body: '' } })
        .where(eq(cmsContents.id, 'rt-legacy'));
      const answer = (await readOnly('GET', 'posts/rt-legacy')).body as Item;
      expect(answer).not.toHaveProperty('description');
      expect(answer).not.toHaveProperty('body');
      await expectRoundTrip(findEndpoint('posts')!, 'rt-legacy');
    });
  });
});
