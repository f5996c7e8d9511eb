import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { auditEvents, cmsContents } from '@/server/platform/db/schema';
import { consoleRoutes } from './console-http';
import { findItem } from './items';
import {
  SITE,
  expectBare404,
  roleRouteTests,
  siteHeaders,
  addUser,
  flashOf,
} from '@test-support/route-tests';
import { createContent } from '@/server/services/cms/writes';

/**
 * The content list's bulk action on a real database: a plain form post from the confirmation
 * screen; each item through the editor's own step, one refusal not stopping the others, each
 * reported by title in Japanese; audited; nobody but staff, and never an item changed since
 * the screen showed it.
 */

const { users, viewer, database } = roleRouteTests('console-bulk', { prefix: 'b-' });
const routes = consoleRoutes({ viewer });
const posts = findEndpoint('posts')!;

beforeAll(async () => {
  for (const who of Object.values(users)) await addUser(database, who);
});

async function draft(title: string, body: Record<string, unknown> = { title }) {
  const { id } = await createContent(
    database.db,
    posts,
    { body, status: 'draft' },
    {
      actor: 'system',
    },
  );
  return (await findItem(database.db, posts, id))!;
}

function bulkRequest(who: keyof typeof users | null, action: string, items: string[]) {
  const body = new FormData();
  body.append('action', action);
  for (const item of items) body.append('items', item);
  const request = new Request(`${SITE}/api/admin/content/posts/bulk`, {
    method: 'POST',
    headers: siteHeaders({ who, plain: true }),
    body,
  });
  return routes.bulk(request, 'posts');
}

const itemOf = (row: { id: string; updatedAt: Date }) => `${row.id}@${row.updatedAt.toISOString()}`;

describe('bulk actions', () => {
  it('publishes what it can, reports each refusal by title, and leaves the rest', async () => {
    const a = await draft('一括公開A');
    const b = await draft('一括公開B');
    const changed = await draft('確認後に変わった記事');
    await database.db
      .update(cmsContents)
      .set({ updatedAt: new Date(changed.updatedAt.getTime() + 1000) })
      .where(eq(cmsContents.id, changed.id));

    const response = await bulkRequest('editor', 'publish', [
      itemOf(a),
      itemOf(b),
      itemOf(changed),
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/content/posts');
    const flash = flashOf(response);
    expect(flash?.message).toBe('2件を公開しました。1件は公開できませんでした。');
    expect(Object.values(flash?.values ?? {})).toContain(
      '「確認後に変わった記事」: 確認画面を開いたあとに、ほかの人が更新しました。',
    );
    expect((await findItem(database.db, posts, a.id))?.status).toBe('PUBLISH');
    expect((await findItem(database.db, posts, changed.id))?.status).toBe('DRAFT');

    const unpublished = await bulkRequest('admin', 'unpublish', [
      itemOf((await findItem(database.db, posts, a.id))!),
    ]);
    expect(flashOf(unpublished)?.message).toBe('1件の公開を停止しました。');
    const [audit] = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'content-bulk'))
      .limit(1);
    expect(audit?.detail).toMatchObject({ action: 'publish', refused: [changed.id] });
  });

  it('deletes after confirmation, and refuses anyone but staff and an empty choice', async () => {
    const doomed = await draft('削除する記事');
    for (const who of [null, 'member', 'contributor'] as const)
      expectBare404(await bulkRequest(who, 'delete', [itemOf(doomed)]));
    expect(await findItem(database.db, posts, doomed.id)).not.toBeNull();

    const none = await bulkRequest('editor', 'delete', []);
    expect(flashOf(none)?.message).toBe('項目を1件以上選んでください。');
    const done = await bulkRequest('editor', 'delete', [itemOf(doomed)]);
    expect(flashOf(done)?.message).toBe('1件を削除しました。');
    expect(await findItem(database.db, posts, doomed.id)).toBeNull();
  });
});
