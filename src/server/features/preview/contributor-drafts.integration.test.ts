import { beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { consoleRoutes } from '@/server/features/console/console-http';
import { handleContentApi } from '@/server/services/cms/http';
import { findDraftKey } from '@/server/services/cms/store';
import type * as SessionUser from '@/server/features/identity/session-user';
import {
  SITE,
  TEST_VIEWER_HEADER,
  addUser,
  roleRouteTests,
  siteHeaders,
} from '@test-support/route-tests';
import { createContent, updateContent } from '@/server/services/cms/writes';

/**
 * Attack test of the contributor role (docs/decisions/031-contributor-role.md): a contributor
 * holds a session, the preview URLs of their own drafts and so a valid draft key of their own.
 * None of it opens another author's draft: not the preview route (without a key, with their
 * own key, with `?as=visitor`), not a preview cookie of their own item, not the content API
 * (`?draftKey`), not the console's reference search (its titles are the published ones).
 */

// The preview route reads the session from the request's cookies; here from the test header.
vi.mock('@/server/features/identity/session-user', async (importOriginal) => ({
  ...(await importOriginal<typeof SessionUser>()),
  userFromHeaders: (headers: Headers) => viewer(headers),
}));
const cookieJar = vi.hoisted(() => ({ preview: undefined as string | undefined }));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () =>
    Promise.resolve({
      get: (name: string) =>
        name === 'axis_preview' && cookieJar.preview
          ? { name, value: cookieJar.preview }
          : undefined,
    }),
}));

const { activePreview, previewCookieValue, previewRoute } = await import('./preview');

const { users, viewer, database } = roleRouteTests('contributor-drafts', { prefix: 'cd-' });
/** The two who matter here: the attacker, and the staff whose drafts they are after. */
type Who = 'contributor' | 'editor';
const posts = findEndpoint('posts')!;
const routes = consoleRoutes({ viewer });
const openPreview = previewRoute('posts', (id) => `/posts/${id}`);

/** What no contributor may read: in other authors' drafts only. */
const SECRET_TITLE = 'タニンノシタガキ';
const SECRET_BODY = 'タニンノホンブン';
const REVISION_TITLE = 'コウカイマエノダイメイ';
const keys: Record<string, string> = {};

beforeAll(async () => {
  for (const who of Object.values(users)) await addUser(database, who);
  const db = database.db;
  // The editor's draft, and a published post with the editor's unpublished revision.
  await createContent(db, posts, {
    id: 'editors-draft',
    status: 'draft',
    body: { title: SECRET_TITLE, body: `<p>${SECRET_BODY}</p>` },
  });
  await createContent(db, posts, {
    id: 'published-post',
    status: 'publish',
    body: { title: '公開中の記事', body: '<p>公開中</p>', isPublicPreview: true },
  });
  await updateContent(
    db,
    posts,
    'published-post',
    { title: REVISION_TITLE, body: `<p>${SECRET_BODY}</p>` },
    { draft: true },
  );
  // The contributor's own draft, made as the console makes it.
  const mine = await routes.create(
    new Request(`${SITE}/api/admin/content/posts`, {
      method: 'POST',
      headers: { ...siteHeaders({ who: 'contributor' }), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'my-draft', fields: { title: '自分の下書き' } }),
    }),
    'posts',
  );
  expect(mine.status).toBe(201);
  for (const id of ['editors-draft', 'published-post', 'my-draft'])
    keys[id] = (await findDraftKey(db, 'posts', id))!;
});

function preview(who: Who | null, id: string, query = '') {
  const headers = new Headers(who ? { [TEST_VIEWER_HEADER]: who } : {});
  return openPreview(new Request(`${SITE}/posts/${id}/preview${query}`, { headers }), {
    params: Promise.resolve({ contentId: id }),
  });
}

function expectRefused(response: Response, what: string) {
  expect(response.status, what).toBe(403);
  expect(response.headers.get('set-cookie'), what).toBeNull();
  expect(response.headers.get('location'), what).toBeNull();
}

describe('a contributor and another author’s draft', () => {
  it('the preview route refuses them without a key, with their own key and as a visitor', async () => {
    const own = encodeURIComponent(keys['my-draft']!);
    for (const id of ['editors-draft', 'published-post'])
      for (const query of [
        '',
        '?as=visitor',
        `?draftKey=${own}`,
        `?draftKey=${own}&as=visitor`,
        '?draftKey=',
      ])
        expectRefused(await preview('contributor', id, query), `${id}${query}`);
    // Their own draft opens with its key; an editor's session opens any draft (the controls).
    expect((await preview('contributor', 'my-draft', `?draftKey=${own}`)).status).toBe(307);
    expect((await preview('editor', 'editors-draft')).status).toBe(307);
  });

  it('a preview cookie of their own draft opens nothing else', async () => {
    cookieJar.preview = previewCookieValue({
      endpoint: 'posts',
      contentId: 'my-draft',
      draftKey: keys['my-draft']!,
    });
    expect(await activePreview('posts', 'my-draft')).toBeDefined();
    expect(await activePreview('posts', 'editors-draft')).toBeUndefined();
    // Even a cookie naming the other item with their own key (were it signed) is refused.
    cookieJar.preview = previewCookieValue({
      endpoint: 'posts',
      contentId: 'editors-draft',
      draftKey: keys['my-draft']!,
      as: 'visitor',
    });
    expect(await activePreview('posts', 'editors-draft')).toBeUndefined();
    cookieJar.preview = undefined;
  });

  it('the content API answers 401 to their session, with or without the right draft key', async () => {
    for (const id of ['editors-draft', 'published-post']) {
      for (const path of [`posts/${id}?draftKey=${keys[id]}`, `posts?draftKey=${keys[id]}`]) {
        const [endpoint, contentId] = path.split('?')[0]!.split('/') as [string, string?];
        const response = await handleContentApi(
          new Request(`${SITE}/api/v1/${path}`, {
            headers: {
              ...siteHeaders({ who: 'contributor' }),
              cookie: 'better-auth.session_token=stolen',
            },
          }),
          endpoint,
          contentId,
          database.db,
        );
        expect(response.status, path).toBe(401);
        const text = await response.text();
        for (const secret of [SECRET_TITLE, SECRET_BODY, REVISION_TITLE])
          expect(text, path).not.toContain(secret);
      }
    }
  });

  it('the reference search shows them published items by their published titles only', async () => {
    const lookup = async (query: string) => {
      const response = await routes.lookup(
        new Request(`${SITE}/api/admin/content/posts/lookup?${query}`, {
          headers: siteHeaders({ who: 'contributor' }),
        }),
        'posts',
      );
      expect(response.status).toBe(200);
      return JSON.stringify(await response.json());
    };
    for (const query of [
      `q=${encodeURIComponent(SECRET_TITLE)}`,
      `q=${encodeURIComponent(REVISION_TITLE)}`,
      'q=editors-draft',
      'ids=editors-draft,published-post',
      `q=${encodeURIComponent('公開中')}`,
    ]) {
      const answer = await lookup(query);
      expect(answer, query).not.toContain(SECRET_TITLE);
      expect(answer, query).not.toContain(REVISION_TITLE);
      expect(answer, query).not.toContain('editors-draft');
    }
    expect(await lookup('ids=published-post')).toContain('公開中の記事');
  });
});
