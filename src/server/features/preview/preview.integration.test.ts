import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { apiClient } from '@test-support/content-api-client';
import { findDraftKey } from '@/server/services/cms/store';
import { createTestDatabase } from '@test-support/db/test-database';
import {
  PREVIEW_SECONDS,
  previewCookieValue,
  previewDraftKey,
  previewRoute,
  readPreviewCookie,
} from './preview';

/**
 * Preview opens one draft, through a signed cookie that names it, on a real database: an
 * unsigned or altered cookie opens nothing, a cookie for one draft opens no other, and the
 * draft key is checked against the item on every request.
 */

const request = vi.hoisted(() => ({ cookie: undefined as string | undefined }));
vi.mock('next/headers', () => ({
  cookies: () =>
    Promise.resolve({
      get: (name: string) =>
        name === 'axis_preview' && request.cookie !== undefined
          ? { name, value: request.cookie }
          : undefined,
    }),
}));

describe('preview', () => {
  let database: Database;
  const drafts: { id: string; draftKey: string }[] = [];

  beforeAll(async () => {
    vi.stubEnv('APP_SECRET', 'p'.repeat(40));
    database = await createTestDatabase();
    useDatabase(database);
    const { call } = await apiClient(database.db);
    for (const title of ['下書き一', '下書き二']) {
      const created = await call('POST', 'posts?status=draft', {
        body: { title, body: '<p>下書きの本文。</p>' },
      });
      const { id } = created.body as { id: string };
      drafts.push({ id, draftKey: (await findDraftKey(database.db, 'posts', id))! });
    }
  });
  afterAll(async () => {
    useDatabase(undefined);
    await database.close();
    vi.unstubAllEnvs();
  });

  const keyFor = (cookie: string | undefined, id: string) => {
    request.cookie = cookie;
    return previewDraftKey('posts', id);
  };

  it('opens the draft its signed cookie names', async () => {
    const [a] = drafts;
    const cookie = previewCookieValue({
      endpoint: 'posts',
      contentId: a!.id,
      draftKey: a!.draftKey,
    });
    expect(await keyFor(cookie, a!.id)).toBe(a!.draftKey);
  });

  it('opens no other draft with it', async () => {
    const [a, b] = drafts;
    const cookie = previewCookieValue({
      endpoint: 'posts',
      contentId: a!.id,
      draftKey: a!.draftKey,
    });
    expect(await keyFor(cookie, b!.id)).toBeUndefined();
    expect(await previewDraftKey('jobs', a!.id)).toBeUndefined();
  });

  it('refuses the unsigned cookie of before, and any altered one', async () => {
    const [a] = drafts;
    const target = { endpoint: 'posts', contentId: a!.id, draftKey: a!.draftKey } as const;
    expect(await keyFor(JSON.stringify(target), a!.id)).toBeUndefined();
    expect(await keyFor(encodeURIComponent(JSON.stringify(target)), a!.id)).toBeUndefined();
    const cookie = previewCookieValue(target);
    const [payload, exp, mac] = cookie.split('.') as [string, string, string];
    const other = Buffer.from(JSON.stringify({ ...target, contentId: drafts[1]!.id })).toString(
      'base64url',
    );
    expect(await keyFor(`${other}.${exp}.${mac}`, drafts[1]!.id)).toBeUndefined();
    expect(await keyFor(`${payload}.${Number(exp) + 3600}.${mac}`, a!.id)).toBeUndefined();
    expect(await keyFor(`${payload}.${exp}.${mac.slice(1)}A`, a!.id)).toBeUndefined();
  });

  it('expires', () => {
    const [a] = drafts;
    const target = { endpoint: 'posts', contentId: a!.id, draftKey: a!.draftKey } as const;
    const now = Date.now();
    const cookie = previewCookieValue(target, now);
    expect(readPreviewCookie(cookie, now + (PREVIEW_SECONDS - 1) * 1000)).toEqual(target);
    expect(readPreviewCookie(cookie, now + PREVIEW_SECONDS * 1000)).toBeNull();
  });

  it('checks the draft key against the item on every request', async () => {
    const [a] = drafts;
    const wrong = previewCookieValue({ endpoint: 'posts', contentId: a!.id, draftKey: 'guess' });
    expect(await keyFor(wrong, a!.id)).toBeUndefined();
  });

  it('marks 「訪問者に見える部分」 in the cookie, and nothing else for any other value', async () => {
    const [a] = drafts;
    const route = previewRoute('posts', (id) => `/posts/${id}`);
    const targetOf = async (query: string) => {
      const url = `http://localhost/posts/${a!.id}/preview?draftKey=${a!.draftKey}${query}`;
      const answer = await route(new Request(url), {
        params: Promise.resolve({ contentId: a!.id }),
      });
      expect(answer.status).toBe(307);
      const value = /axis_preview=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
      return readPreviewCookie(value);
    };
    expect(await targetOf('&as=visitor')).toMatchObject({ contentId: a!.id, as: 'visitor' });
    expect(await targetOf('&as=staff')).not.toHaveProperty('as');
    expect(await targetOf('')).not.toHaveProperty('as');
  });
});
