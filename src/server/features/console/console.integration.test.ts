import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorAnswer, SaveAnswer } from '@/lib/admin-content';
import { findEndpoint } from '@/lib/cms/model';
import { getContent, listContents } from '@/server/services/cms/store';
import { parseListQuery } from '@/server/services/cms/query/params';
import { type SearchScope, readingsIndexed } from '@/server/services/cms/search-index';
import { apiClient } from '@test-support/content-api-client';
import { listVersions } from '@/server/services/cms/versions';
import { cmsContents, user } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity/session-user';
import { runWorkflow } from './actions';
import { consoleRoutes } from './console-http';
import { listConsoleItems } from './items';
import { publishDueItems } from './scheduler';
import {
  SITE,
  appUser,
  siteHeaders,
  testDataDir,
  testDatabase,
  testViewer,
} from '@test-support/route-tests';
import { createContent } from '@/server/services/cms/writes';

/**
 * The content console's routes (src/app/api/admin/content/**) on a real database: anyone but
 * staff gets the same bare 404 and writes nothing; editors create, save (with the conflict
 * check and folded autosaves), publish, schedule, unpublish, restore and delete, and every
 * write leaves a version naming who made it.
 */

testDataDir('console-http');

type Who = 'member' | 'editor' | 'editor2' | 'admin';
const users: Record<Who, AppUser> = {
  member: appUser('c-member', 'member', '会員'),
  editor: appUser('c-editor', 'editor', '編集 一郎'),
  editor2: appUser('c-editor2', 'editor', '編集 二郎'),
  admin: appUser('c-admin', 'admin', '管理 花子'),
};

const database = testDatabase();
const posts = findEndpoint('posts')!;

beforeAll(async () => {
  for (const who of Object.values(users))
    await database.db
      .insert(user)
      .values({ id: who.id, name: who.name, email: who.email, role: who.role });
  await createContent(database.db, findEndpoint('categories')!, {
    id: 'cat-a',
    body: { name: '特集A' },
    status: 'publish',
  });
  await createContent(database.db, findEndpoint('tags')!, {
    id: 'tag-a',
    body: { name: '建築' },
    status: 'publish',
  });
});

const routes = consoleRoutes({ viewer: testViewer(users) });

function request(
  method: string,
  url: string,
  who: Who | null,
  body?: unknown,
  accept = 'application/json',
) {
  return new Request(`${SITE}${url}`, {
    method,
    headers: {
      ...siteHeaders({ who }),
      accept,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json<T>(response: Response): Promise<{ status: number; body: T }> {
  return { status: response.status, body: (await response.json()) as T };
}

const api = {
  create: (who: Who | null, fields: Record<string, unknown>, endpoint = 'posts') =>
    routes.create(request('POST', `/api/admin/content/${endpoint}`, who, { fields }), endpoint),
  save: (who: Who | null, id: string, body: unknown, endpoint = 'posts') =>
    routes.save(request('PUT', `/api/admin/content/${endpoint}/${id}`, who, body), endpoint, id),
  remove: (who: Who | null, id: string) =>
    routes.remove(request('DELETE', `/api/admin/content/posts/${id}`, who, {}), 'posts', id),
  workflow: (who: Who | null, id: string, body: unknown) =>
    routes.workflow(
      request('POST', `/api/admin/content/posts/${id}/workflow`, who, body),
      'posts',
      id,
    ),
  restore: (who: Who | null, id: string, version: number, accept?: string) =>
    routes.restore(
      request('POST', `/api/admin/content/posts/${id}/restore`, who, { version }, accept),
      'posts',
      id,
    ),
  lookup: (who: Who | null, query: string, endpoint = 'tags') =>
    routes.lookup(request('GET', `/api/admin/content/${endpoint}/lookup?${query}`, who), endpoint),
};

const rowOf = async (id: string) =>
  (
    await database.db
      .select()
      .from(cmsContents)
      .where(and(eq(cmsContents.endpoint, 'posts'), eq(cmsContents.id, id)))
  )[0];

async function newPost(title = '下書きの記事'): Promise<SaveAnswer> {
  const { status, body } = await json<SaveAnswer>(await api.create('editor', { title }));
  expect(status).toBe(201);
  return body;
}

describe('who may use the console routes', () => {
  it('answers 404 to anyone but staff, and to unknown endpoints and ids, writing nothing', async () => {
    const post = await newPost('守られた記事');
    const before = await rowOf(post.id);
    for (const who of [null, 'member'] as const) {
      expect((await api.create(who, { title: 'x' })).status).toBe(404);
      expect(
        (await api.save(who, post.id, { fields: { title: 'x' }, baseUpdatedAt: post.updatedAt }))
          .status,
      ).toBe(404);
      expect(
        (await api.workflow(who, post.id, { action: 'publish', baseUpdatedAt: post.updatedAt }))
          .status,
      ).toBe(404);
      expect((await api.remove(who, post.id)).status).toBe(404);
      expect((await api.restore(who, post.id, 1)).status).toBe(404);
      expect((await api.lookup(who, 'q=建築')).status).toBe(404);
    }
    expect(await rowOf(post.id)).toEqual(before);
    expect((await api.create('editor', { title: 'x' }, 'no-such-endpoint')).status).toBe(404);
    expect(
      (await api.save('editor', '../etc', { fields: {}, baseUpdatedAt: post.updatedAt })).status,
    ).toBe(404);
    // An object endpoint has one item, addressed as '-', and nothing else.
    expect(
      (await api.save('editor', 'x', { fields: {}, baseUpdatedAt: post.updatedAt }, 'about'))
        .status,
    ).toBe(404);
  });

  it('lets editors and admins in', async () => {
    expect((await api.create('admin', { title: '管理者の記事' })).status).toBe(201);
    const { status, body } = await json<{ items: { id: string; label: string }[] }>(
      await api.lookup('editor', 'q=建'),
    );
    expect(status).toBe(200);
    expect(body.items).toEqual([{ id: 'tag-a', label: '建築', status: 'published' }]);
  });
});

describe('writing', () => {
  it('creates a draft that the site does not show, with a preview link', async () => {
    const post = await newPost();
    expect(post).toMatchObject({ status: 'draft', publicUrl: null });
    expect(post.previewUrl).toMatch(new RegExp(`^/posts/${post.id}/preview\\?draftKey=.+`));
    await expect(
      getContent(database.db, posts, post.id, { depth: 1 }, { kind: 'published' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('says what is wrong beside each field, in Japanese, and writes nothing', async () => {
    const { status, body } = await json<ErrorAnswer>(
      await api.create('editor', {
        title: '',
        seriesOrder: -1,
        format: 'poem',
        description: 'あ'.repeat(1001),
      }),
    );
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({
      title: 'タイトルを入力してください。',
      seriesOrder: '連載内の順番は0から10000までの数値で入力してください。',
      format: '形式は選択肢から選んでください。',
      description: '概要は1,000文字以内で入力してください。',
    });
    const post = await newPost();
    const before = await rowOf(post.id);
    const refused = await json<ErrorAnswer>(
      await api.save('editor', post.id, {
        fields: { title: 'ok', category: 'no-such-category' },
        baseUpdatedAt: post.updatedAt,
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/参照先の項目が見つかりません/);
    expect(await rowOf(post.id)).toEqual(before);
    const junk = await api.save('editor', post.id, { fields: 'title', baseUpdatedAt: 'yesterday' });
    expect(junk.status).toBe(400);
  });

  it('refuses a save over someone else’s newer one, naming them', async () => {
    const post = await newPost('共同編集');
    const first = await json<SaveAnswer>(
      await api.save('editor', post.id, {
        fields: { title: '一郎の版' },
        baseUpdatedAt: post.updatedAt,
      }),
    );
    expect(first.status).toBe(200);
    // The second editor still has the page as it was before the first save.
    const second = await json<ErrorAnswer>(
      await api.save('editor2', post.id, {
        fields: { title: '二郎の版' },
        baseUpdatedAt: post.updatedAt,
      }),
    );
    expect(second.status).toBe(409);
    expect(second.body.conflict).toEqual({ updatedAt: first.body.updatedAt, by: '編集 一郎' });
    expect((await rowOf(post.id))?.draftData).toMatchObject({ title: '一郎の版' });
    // Choosing to overwrite sends the newer token.
    const overwrite = await api.save('editor2', post.id, {
      fields: { title: '二郎の版' },
      baseUpdatedAt: second.body.conflict!.updatedAt,
    });
    expect(overwrite.status).toBe(200);
    expect((await rowOf(post.id))?.draftData).toMatchObject({ title: '二郎の版' });
  });

  it('writes an object page by its first save, and refuses a second “first” save', async () => {
    const first = await json<SaveAnswer>(
      await api.save(
        'editor',
        '-',
        { fields: { title: '私たちについて' }, baseUpdatedAt: null },
        'about',
      ),
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: '', status: 'draft' });
    const again = await api.save(
      'editor2',
      '-',
      { fields: { title: '別の人の版' }, baseUpdatedAt: null },
      'about',
    );
    expect(again.status).toBe(409);
  });

  it('folds an editor’s autosaves into one version', async () => {
    const post = await newPost('自動保存');
    let token = post.updatedAt;
    for (const title of ['自動保存1', '自動保存2', '自動保存3']) {
      const saved = await json<SaveAnswer>(
        await api.save('editor', post.id, {
          fields: { title },
          baseUpdatedAt: token,
          autosave: true,
        }),
      );
      expect(saved.status).toBe(200);
      token = saved.body.updatedAt;
    }
    const versions = await listVersions(database.db, 'posts', post.id);
    expect(versions.map((v) => [v.action, v.actor, v.data?.title])).toEqual([
      ['autosave', 'user:c-editor', '自動保存3'],
      ['create', 'user:c-editor', '自動保存'],
    ]);
  });
});

describe('workflow', () => {
  it('publishes, takes a changed draft, unpublishes back to a draft', async () => {
    const post = await newPost('公開する記事');
    const published = await json<SaveAnswer>(
      await api.workflow('editor', post.id, { action: 'publish', baseUpdatedAt: post.updatedAt }),
    );
    expect(published.body).toMatchObject({
      status: 'published',
      publicUrl: `/posts/${post.id}`,
      previewUrl: null,
    });
    const live = await getContent(database.db, posts, post.id, { depth: 0 }, { kind: 'published' });
    expect(live.title).toBe('公開する記事');

    const changed = await json<SaveAnswer>(
      await api.save('editor', post.id, {
        fields: { title: '直した見出し' },
        baseUpdatedAt: published.body.updatedAt,
      }),
    );
    expect(changed.body.status).toBe('changed');
    // The site still shows the published version until the change is published.
    expect(
      (await getContent(database.db, posts, post.id, { depth: 0 }, { kind: 'published' })).title,
    ).toBe('公開する記事');

    const stale = await api.workflow('editor', post.id, {
      action: 'unpublish',
      baseUpdatedAt: published.body.updatedAt,
    });
    expect(stale.status).toBe(409);
    const off = await json<SaveAnswer>(
      await api.workflow('editor', post.id, {
        action: 'unpublish',
        baseUpdatedAt: changed.body.updatedAt,
      }),
    );
    expect(off.body).toMatchObject({ status: 'draft', publicUrl: null });
    await expect(
      getContent(database.db, posts, post.id, { depth: 0 }, { kind: 'published' }),
    ).rejects.toMatchObject({ status: 404 });
    // The newer draft is what stays.
    expect((await rowOf(post.id))?.draftData).toMatchObject({ title: '直した見出し' });
  });

  it('answers a publication without waiting for its kanji to be read: found by them at once, by their kana once read', async () => {
    const post = await newPost('漆の器を直す');
    const found = async (q: string, scope: SearchScope) =>
      (
        await listContents(
          database.db,
          posts,
          { ...parseListQuery(new URLSearchParams({ q })), scope },
          { kind: 'published' },
        )
      ).contents.map((item) => item.id);
    const published = await api.workflow('editor', post.id, {
      action: 'publish',
      baseUpdatedAt: post.updatedAt,
    });
    expect(published.status).toBe(200);
    // The reading analyser's child takes seconds to start: the editor is not kept waiting for it
    // (bench:staff times it), and the kanji are searchable at once. Whether the kana already are
    // depends on the child: a warm one may have read them before the first search.
    expect(await found('漆', { kind: 'full' })).toContain(post.id);
    await readingsIndexed();
    expect(await found('うるし', { kind: 'full' })).toContain(post.id);
    expect(await found('うるし', { kind: 'open' })).toContain(post.id);
  });

  it('schedules: refused in the past, published by the scheduler at its time, not before', async () => {
    const post = await newPost('予約の記事');
    const past = await json<ErrorAnswer>(
      await api.workflow('editor', post.id, {
        action: 'schedule',
        baseUpdatedAt: post.updatedAt,
        at: new Date(Date.now() - 60_000).toISOString(),
      }),
    );
    expect(past.status).toBe(400);
    expect(past.body.message).toMatch(/現在より後/);

    const at = new Date(Date.now() + 60 * 60_000);
    const scheduled = await json<SaveAnswer>(
      await api.workflow('editor', post.id, {
        action: 'schedule',
        baseUpdatedAt: post.updatedAt,
        at: at.toISOString(),
      }),
    );
    expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduledAt: at.toISOString() });
    const { rows } = await listConsoleItems(database.db, posts, {
      q: '予約の記事',
      status: 'scheduled',
      category: '',
      sort: 'updated',
      page: 1,
    });
    expect(rows.map((r) => r.id)).toEqual([post.id]);

    expect(await publishDueItems(database.db, new Date(at.getTime() - 1000))).toBe(0);
    expect((await rowOf(post.id))?.status).toBe('DRAFT');
    expect(await publishDueItems(database.db, at)).toBe(1);
    const row = await rowOf(post.id);
    expect(row).toMatchObject({ status: 'PUBLISH', scheduledAt: null, updatedBy: 'system' });
    // Dated when it was scheduled for.
    expect(row?.publishedAt?.toISOString()).toBe(at.toISOString());
    expect(await publishDueItems(database.db, new Date(at.getTime() + 5000))).toBe(0);
    const versions = await listVersions(database.db, 'posts', post.id);
    expect(versions[0]).toMatchObject({ action: 'publish', actor: 'system' });
  });

  it('restores an earlier version into the draft, and refuses a version of another item', async () => {
    const post = await newPost('第一版');
    const second = await json<SaveAnswer>(
      await api.save('editor', post.id, {
        fields: { title: '第二版', tags: ['tag-a'] },
        baseUpdatedAt: post.updatedAt,
      }),
    );
    expect(second.status).toBe(200);
    const [, firstVersion] = await listVersions(database.db, 'posts', post.id);
    const restored = await api.restore('editor', post.id, firstVersion!.id, 'text/html');
    expect(restored.status).toBe(303);
    expect(restored.headers.get('location')).toBe(`/admin/content/posts/${post.id}`);
    const draft = (await rowOf(post.id))?.draftData;
    expect(draft).toMatchObject({ title: '第一版' });
    expect(draft).not.toHaveProperty('tags'); // what the later version added is gone
    const versions = await listVersions(database.db, 'posts', post.id);
    expect(versions[0]).toMatchObject({ action: 'restore', actor: 'user:c-editor' });

    const other = await newPost('別の記事');
    const [otherVersion] = await listVersions(database.db, 'posts', other.id);
    expect((await api.restore('editor', post.id, otherVersion!.id)).status).toBe(404);
  });

  it('refuses to delete an item others refer to, and deletes it with its history otherwise', async () => {
    const target = await newPost('参照される記事');
    const referrer = await newPost('参照する記事');
    await api.save('editor', referrer.id, {
      fields: { title: '参照する記事', relatedPosts: [target.id] },
      baseUpdatedAt: referrer.updatedAt,
    });
    const refused = await json<ErrorAnswer>(await api.remove('editor', target.id));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/参照されているため削除できません/);
    expect(await rowOf(target.id)).toBeDefined();

    expect((await api.remove('editor', referrer.id)).status).toBe(200);
    expect(await rowOf(referrer.id)).toBeUndefined();
    expect(await listVersions(database.db, 'posts', referrer.id)).toEqual([]);
  });

  it('tells the editor, in Japanese, why the store refused a workflow step', async () => {
    const draft = await newPost('公開前の記事');
    const run = (id: string, action: 'publish' | 'unpublish') =>
      runWorkflow(
        database.db,
        posts,
        id,
        { action, baseUpdatedAt: draft.updatedAt },
        'user:c-editor',
      );
    expect(await run(draft.id, 'unpublish')).toEqual({
      status: 400,
      body: { ok: false, message: 'この項目は公開されていません。' },
    });
    expect(await run('no-such-item', 'publish')).toEqual({
      status: 404,
      body: { ok: false, message: 'この項目は削除されたか、見つかりません。' },
    });
  });

  it('records content API writes in the history, naming the key', async () => {
    const { call } = await apiClient(database.db);
    const created = await call('POST', 'posts', { body: { title: 'API の記事' } });
    const id = (created.body as { id: string }).id;
    const [version] = await listVersions(database.db, 'posts', id);
    expect(version).toMatchObject({ action: 'api', status: 'PUBLISH' });
    expect(version?.actor).toMatch(/^key:/);
  });
});
