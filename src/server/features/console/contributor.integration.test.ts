import { readingsIndexed } from '@/server/services/cms/search-index';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SaveAnswer } from '@/lib/admin-content';
import { findEndpoint } from '@/lib/cms/model';
import { handleContentApi } from '@/server/services/cms/http';
import { auditEvents, cmsContents } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity/session-user';
import { consoleRoutes } from './console-http';
import { listConsoleItems } from './items';
import { publishDueItems } from './scheduler';
import { findSubmission } from './submissions';
import {
  SITE,
  appUser,
  expectBare404,
  formPost,
  siteHeaders,
  testDataDir,
  testDatabase,
  testViewer,
  addUser,
} from '@test-support/route-tests';
import { scheduleContent } from '@/server/services/cms/writes';

/**
 * The contributor (寄稿者) on a real database: writes drafts of posts and submits them; an
 * editor returns them with a comment or approves them (published). A contributor reaches no
 * route that publishes, schedules, unpublishes, restores or deletes, nor anyone else's item,
 * and the content API takes no session at all.
 */

testDataDir('console-contributor');

type Who = 'contributor' | 'other' | 'editor';
const users: Record<Who, AppUser> = {
  contributor: appUser('k-writer', 'contributor', '寄稿 太郎'),
  other: appUser('k-other', 'contributor', '寄稿 次郎'),
  editor: appUser('k-editor', 'editor', '編集 一郎'),
};
const database = testDatabase();
const posts = findEndpoint('posts')!;
const routes = consoleRoutes({ viewer: testViewer(users) });

beforeAll(async () => {
  for (const who of Object.values(users)) await addUser(database, who);
});

function call(method: string, url: string, who: Who, body?: unknown) {
  return new Request(`${SITE}${url}`, {
    method,
    headers: { ...siteHeaders({ who }), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const path = (id: string, tail = '') => `/api/admin/content/posts/${id}${tail}`;
const api = {
  create: (who: Who, fields: Record<string, unknown>, endpoint = 'posts') =>
    routes.create(call('POST', `/api/admin/content/${endpoint}`, who, { fields }), endpoint),
  save: (who: Who, id: string, title: string, baseUpdatedAt: string) =>
    routes.save(call('PUT', path(id), who, { fields: { title }, baseUpdatedAt }), 'posts', id),
  workflow: (who: Who, id: string, body: Record<string, unknown>) =>
    routes.workflow(call('POST', path(id, '/workflow'), who, body), 'posts', id),
  remove: (who: Who, id: string) => routes.remove(call('DELETE', path(id), who, {}), 'posts', id),
  restore: (who: Who, id: string) =>
    routes.restore(call('POST', path(id, '/restore'), who, { version: 1 }), 'posts', id),
  review: (who: Who, id: string, body: Record<string, unknown>) =>
    routes.review(call('POST', path(id, '/review'), who, body), 'posts', id),
};

async function created(who: Who, title: string): Promise<SaveAnswer> {
  const response = await api.create(who, { title });
  expect(response.status).toBe(201);
  return (await response.json()) as SaveAnswer;
}

const rowOf = async (id: string) =>
  (
    await database.db
      .select()
      .from(cmsContents)
      .where(and(eq(cmsContents.endpoint, 'posts'), eq(cmsContents.id, id)))
  )[0]!;

describe('a contributor', () => {
  it('creates posts only, and cannot publish, schedule, unpublish, restore, delete or approve through any route', async () => {
    const mine = await created('contributor', '寄稿の下書き');
    expect((await findSubmission(database.db, 'posts', mine.id))?.authorId).toBe('k-writer');
    expectBare404(await api.create('contributor', { name: 'カテゴリ' }, 'categories'));

    const base = mine.updatedAt;
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const action of ['publish', 'schedule', 'unschedule', 'unpublish'])
      expectBare404(
        await api.workflow('contributor', mine.id, { action, baseUpdatedAt: base, at: future }),
      );
    expectBare404(await api.remove('contributor', mine.id));
    expectBare404(await api.restore('contributor', mine.id));
    expectBare404(
      await api.review('contributor', mine.id, { decision: 'approve', baseUpdatedAt: base }),
    );

    // The content API answers to keys only: a signed-in contributor's session is nothing there.
    const viaApi = await handleContentApi(
      new Request(`${SITE}/api/v1/posts/${mine.id}?status=PUBLISH`, {
        method: 'PATCH',
        headers: { ...siteHeaders({ who: 'contributor' }), cookie: 'better-auth.session_token=x' },
        body: JSON.stringify({ title: '公開' }),
      }),
      'posts',
      mine.id,
      database.db,
    );
    expect(viaApi.status).toBe(401);
    expect(await rowOf(mine.id)).toMatchObject({ status: 'DRAFT', data: null });
  });

  it("reaches no one else's item, and sees only their own in the list", async () => {
    const editors = await created('editor', '編集部の記事');
    const others = await created('other', 'ほかの寄稿者の記事');
    const mine = await created('contributor', '自分の記事');
    for (const item of [editors, others]) {
      expectBare404(await api.save('contributor', item.id, '乗っ取り', item.updatedAt));
      expectBare404(
        await api.review('contributor', item.id, {
          decision: 'submit',
          baseUpdatedAt: item.updatedAt,
        }),
      );
    }
    const query = { q: '', status: '', category: '', sort: 'updated', page: 1 } as const;
    const { rows } = await listConsoleItems(database.db, posts, query, { authorId: 'k-writer' });
    expect(rows.map((r) => r.id)).toContain(mine.id);
    expect(rows.map((r) => r.id)).not.toContain(others.id);
    expect(rows.map((r) => r.id)).not.toContain(editors.id);
  });
});

describe('review', () => {
  it('submits, is returned with a comment, submitted again and approved (published), then is no longer theirs to edit', async () => {
    const draft = await created('contributor', '審査される記事');
    const submitted = await api.review('contributor', draft.id, {
      decision: 'submit',
      baseUpdatedAt: draft.updatedAt,
    });
    expect(submitted.status).toBe(200);
    expect((await findSubmission(database.db, 'posts', draft.id))?.state).toBe('in_review');
    // An editor cannot submit on the author's behalf.
    expectBare404(
      await api.review('editor', draft.id, { decision: 'submit', baseUpdatedAt: draft.updatedAt }),
    );

    // Returned without JavaScript: a form post, a comment required, 303 back to the editor.
    const noComment = await routes.review(
      formPost(path(draft.id, '/review'), {
        who: 'editor',
        plain: true,
        fields: { decision: 'return', baseUpdatedAt: draft.updatedAt, comment: ' ' },
      }),
      'posts',
      draft.id,
    );
    expect(noComment.status).toBe(303);
    expect(noComment.headers.get('location')).toBe(`/admin/content/posts/${draft.id}`);
    expect((await findSubmission(database.db, 'posts', draft.id))?.state).toBe('in_review');
    const returned = await routes.review(
      formPost(path(draft.id, '/review'), {
        who: 'editor',
        plain: true,
        fields: {
          decision: 'return',
          baseUpdatedAt: draft.updatedAt,
          comment: 'リードを短くしてください。',
        },
      }),
      'posts',
      draft.id,
    );
    expect(returned.status).toBe(303);
    expect(await findSubmission(database.db, 'posts', draft.id)).toMatchObject({
      state: 'returned',
      reviewComment: 'リードを短くしてください。',
      reviewedBy: 'k-editor',
    });

    const saved = (await (
      await api.save('contributor', draft.id, '直した記事', draft.updatedAt)
    ).json()) as SaveAnswer;
    expect(saved.ok).toBe(true);
    expect(
      (
        await api.review('contributor', draft.id, {
          decision: 'submit',
          baseUpdatedAt: saved.updatedAt,
        })
      ).status,
    ).toBe(200);
    // An approval of what the editor did not see (an older version) is refused.
    const stale = await api.review('editor', draft.id, {
      decision: 'approve',
      baseUpdatedAt: draft.updatedAt,
    });
    expect(stale.status).toBe(400);
    const approved = await api.review('editor', draft.id, {
      decision: 'approve',
      baseUpdatedAt: saved.updatedAt,
    });
    expect(approved.status).toBe(200);
    expect(await rowOf(draft.id)).toMatchObject({ status: 'PUBLISH', updatedBy: 'user:k-editor' });
    expect((await findSubmission(database.db, 'posts', draft.id))?.state).toBe('published');
    expectBare404(await api.save('contributor', draft.id, '公開後の変更', saved.updatedAt));

    const audit = await database.db
      .select({ action: auditEvents.action, actor: auditEvents.actor })
      .from(auditEvents)
      .where(eq(auditEvents.target, `content:posts/${draft.id}`));
    expect(audit.map((a) => `${a.action} ${a.actor}`)).toEqual([
      'content-submitted user:k-writer',
      'content-returned user:k-editor',
      'content-submitted user:k-writer',
      'content-approved user:k-editor',
    ]);
  });

  it('leaves an item read-only to its author once published, however an editor published it', async () => {
    const bulk = await created('contributor', '一括で公開される記事');
    const scheduled = await created('contributor', '予約で公開される記事');
    const body = new FormData();
    body.append('action', 'publish');
    body.append('items', `${bulk.id}@${bulk.updatedAt}`);
    const bulkAnswer = await routes.bulk(
      new Request(`${SITE}/api/admin/content/posts/bulk`, {
        method: 'POST',
        headers: siteHeaders({ who: 'editor', plain: true }),
        body,
      }),
      'posts',
    );
    expect(bulkAnswer.status).toBe(303);
    const at = new Date('2026-11-20T01:00:00Z');
    await scheduleContent(database.db, posts, scheduled.id, at, { actor: 'user:k-editor' });
    expect(await publishDueItems(database.db, at)).toBe(1);

    for (const { id } of [bulk, scheduled]) {
      // The publish's readings are indexed after its answer: the row settles first.
      await readingsIndexed();
      const before = await rowOf(id);
      expect(before.status).toBe('PUBLISH');
      expectBare404(
        await api.save('contributor', id, '公開後の変更', before.updatedAt.toISOString()),
      );
      expect(await rowOf(id)).toEqual(before);
      expect((await findSubmission(database.db, 'posts', id))?.state).toBe('published');
    }
  });

  it('takes an item out of review when its author saves it again', async () => {
    const draft = await created('contributor', '取り下げる記事');
    await api.review('contributor', draft.id, {
      decision: 'submit',
      baseUpdatedAt: draft.updatedAt,
    });
    expect((await api.save('contributor', draft.id, '書き直し', draft.updatedAt)).status).toBe(200);
    expect((await findSubmission(database.db, 'posts', draft.id))?.state).toBe('draft');
  });
});
