import { and, eq } from 'drizzle-orm';
import type { Role } from '@/lib/identity/roles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearApiKeyCache, listApiKeys } from '@/server/services/cms/api-keys';
import { handleContentApi } from '@/server/services/cms/http';
import { auditEvents, cmsApiKeys } from '@/server/platform/db/schema';
import { FLASH_COOKIE } from '@/server/platform/http/cookies';
import { apiKeysHandlers, listKeysForConsole } from './api-keys-http';
import {
  NOT_ADMINS,
  type PostOptions,
  auditsOf as auditsOfAction,
  flashOf,
  formPost,
  roleRouteTests,
} from '@test-support/route-tests';

/**
 * The routes of /admin/api-keys (src/app/api/admin/api-keys/**) on a real database: an admin
 * creates a key that then works against the content API with exactly its permissions, its last
 * use is noted (once a minute at most), and once revoked it is refused. Anyone else, editors
 * included, gets the same bare 404 and changes nothing; bad input writes nothing.
 */

const { viewer, database } = roleRouteTests('api-keys-http');
process.env.CMS_RATE_LIMIT_WRITE = '100000';

const ADMIN_IP = '192.0.2.10';

type Who = Role;

afterEach(() => {
  vi.restoreAllMocks();
});

const routes = apiKeysHandlers({ viewer });

type Call = PostOptions<Who>;

const request = (url: string, call: Call) => formPost(url, { ip: ADMIN_IP, ...call });

const create = (call: Call) => routes.create(request('/api/admin/api-keys', call));
const revoke = (id: string, call: Call) =>
  routes.revoke(request(`/api/admin/api-keys/${id}/revoke`, call), id);

const keyCount = async () => (await listApiKeys(database.db)).length;
const auditsOf = (action: string) => auditsOfAction(database, action);

/** A request of the content API with a key, as the site's /api/v1 route passes it on. */
async function contentApi(
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<number> {
  const url = new URL(path, 'http://localhost/api/v1/');
  const [endpoint, contentId] = url.pathname.replace(/^\/api\/v1\//, '').split('/');
  const response = await handleContentApi(
    new Request(url, {
      method,
      headers: { 'content-type': 'application/json', 'x-microcms-api-key': key },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    endpoint!,
    contentId,
    database.db,
  );
  return response.status;
}

async function lastUsedOf(id: string): Promise<Date | null> {
  const [row] = await database.db
    .select({ lastUsedAt: cmsApiKeys.lastUsedAt })
    .from(cmsApiKeys)
    .where(eq(cmsApiKeys.id, id));
  return row?.lastUsedAt ?? null;
}

const READ_AND_CREATE = { name: '配信システム', permission_GET: 'on', permission_POST: 'on' };

describe('anyone but an admin', () => {
  it('gets a bare 404 from both routes, for fetch and a plain post, and changes nothing', async () => {
    // A key made by an admin, which the strangers try to revoke.
    const made = await create({
      who: 'admin',
      fields: { name: '既存のキー', permission_GET: 'on' },
    });
    expect(made.status).toBe(200);
    const [existing] = await listApiKeys(database.db);
    const keysBefore = await keyCount();
    const auditsBefore = (await database.db.select().from(auditEvents)).length;

    for (const who of NOT_ADMINS) {
      for (const plain of [false, true]) {
        const created = await create({ who, fields: READ_AND_CREATE, plain });
        expect(created.status, `${who} create`).toBe(404);
        expect(created.headers.get('location')).toBeNull();
        expect(created.headers.getSetCookie()).toEqual([]);
        // Invalid input too: the route says nothing about its fields to a stranger.
        const invalid = await create({ who, fields: { name: '' }, plain });
        expect(invalid.status, `${who} invalid create`).toBe(404);
        const revoked = await revoke(existing!.id, { who, plain });
        expect(revoked.status, `${who} revoke`).toBe(404);
      }
    }

    expect(await keyCount()).toBe(keysBefore);
    const [still] = await listApiKeys(database.db);
    expect(still!.revokedAt).toBeNull();
    expect((await database.db.select().from(auditEvents)).length).toBe(auditsBefore);
  });
});

describe('an admin', () => {
  it('is told what is wrong with the form, and nothing is written', async () => {
    const keysBefore = await keyCount();
    const auditsBefore = (await auditsOf('api-key-created')).length;
    const cases: [Record<string, string>, string, string][] = [
      [{ permission_GET: 'on' }, 'name', '名前を入力してください。'],
      [{ name: '   ', permission_GET: 'on' }, 'name', '名前を入力してください。'],
      [
        { name: 'あ'.repeat(101), permission_GET: 'on' },
        'name',
        '名前は 100 文字以内で入力してください。',
      ],
      [{ name: '改行\u0007入り', permission_GET: 'on' }, 'name', '使えない文字が含まれています。'],
      [{ name: '権限なし' }, 'permissions', '権限を一つ以上選んでください。'],
      [
        { name: '下書きだけ', permission_drafts: 'on' },
        'permissions',
        '「下書きの読み取り」には「読み取り」も必要です。',
      ],
    ];
    for (const [fields, field, message] of cases) {
      const response = await create({ who: 'admin', fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const body = (await response.json()) as { fieldErrors: Record<string, string> };
      expect(body.fieldErrors[field]).toBe(message);
    }

    // Without JavaScript: back to the page with the messages and what was typed.
    const plain = await create({
      who: 'admin',
      fields: { name: '下書きだけ', permission_drafts: 'on' },
      plain: true,
    });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/admin/api-keys');
    const flash = flashOf(plain);
    expect(flash?.fieldErrors.permissions).toBe('「下書きの読み取り」には「読み取り」も必要です。');
    expect(flash?.values).toEqual({ name: '下書きだけ', permission_drafts: 'on' });

    expect(await keyCount()).toBe(keysBefore);
    expect((await auditsOf('api-key-created')).length).toBe(auditsBefore);
  });

  it('creates a key shown once, which works with exactly its permissions until revoked', async () => {
    const logged = [
      vi.spyOn(console, 'log'),
      vi.spyOn(console, 'info'),
      vi.spyOn(console, 'warn'),
      vi.spyOn(console, 'error'),
    ];
    const response = await create({ who: 'admin', fields: READ_AND_CREATE, plain: true });
    expect(response.status).toBe(303);
    // The key is in the one-time message only: not in the URL, not in the answer.
    const location = response.headers.get('location')!;
    expect(location).toBe('/admin/api-keys');
    expect(await response.text()).toBe('');
    const flash = flashOf(response)!;
    const key = flash.values.newKey as string;
    expect(key).toMatch(/^cms_[A-Za-z0-9_-]{43}$/);
    expect(flash.values.newKeyName).toBe('配信システム');
    expect(flash.message).toBe('APIキー「配信システム」を作成しました。');
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(FLASH_COOKIE))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Max-Age=60/);
    expect(cookie.length).toBeLessThan(4096);

    const [row] = (await listApiKeys(database.db)).filter((k) => k.name === '配信システム');
    expect(row).toMatchObject({ permissions: ['GET', 'POST'], revokedAt: null, lastUsedAt: null });
    expect(key.startsWith(row!.keyPrefix)).toBe(true);

    // Audited once, with the admin and the address, never with the key.
    const [audit, ...more] = await database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'api-key-created'),
          eq(auditEvents.target, `api_key:${row!.id}`),
        ),
      );
    expect(more).toEqual([]);
    expect(audit).toMatchObject({
      actor: 'user:admin',
      ip: ADMIN_IP,
      detail: { name: '配信システム', permissions: ['GET', 'POST'] },
    });
    expect(JSON.stringify(audit)).not.toContain(key);

    // Its permissions, no more.
    expect(await contentApi(key, 'GET', 'posts')).toBe(200);
    const before = await lastUsedOf(row!.id);
    expect(before).not.toBeNull();
    expect(Date.now() - before!.getTime()).toBeLessThan(10_000);
    expect(await contentApi(key, 'POST', 'categories', { name: 'キーの確認' })).toBe(201);
    expect(await contentApi(key, 'PATCH', 'categories/none', { name: 'x' })).toBe(400);
    expect(await contentApi(key, 'DELETE', 'categories/none')).toBe(400);
    expect(await contentApi(key, 'PUT', 'categories/by-key', { name: 'x' })).toBe(400);
    // A busy key writes its last use once a minute, not on every request.
    expect(await lastUsedOf(row!.id)).toEqual(before);

    for (const spy of logged)
      for (const call of spy.mock.calls) expect(JSON.stringify(call)).not.toContain(key);

    // Revoked: refused at once, audited once; a second revoke changes and audits nothing.
    const revoked = await revoke(row!.id, { who: 'admin', plain: true });
    expect(revoked.status).toBe(303);
    expect(flashOf(revoked)?.message).toBe(
      'APIキー「配信システム」を無効にしました。このキーを使うリクエストは拒否されます。',
    );
    expect(await contentApi(key, 'GET', 'posts')).toBe(401);
    const again = await revoke(row!.id, { who: 'admin' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { message: string }).message).toBe(
      'APIキー「配信システム」はすでに無効になっています。',
    );
    const revokeAudits = (await auditsOf('api-key-revoked')).filter(
      (a) => a.target === `api_key:${row!.id}`,
    );
    expect(revokeAudits).toHaveLength(1);
    expect(revokeAudits[0]).toMatchObject({
      actor: 'user:admin',
      ip: ADMIN_IP,
      detail: { name: '配信システム' },
    });
  });

  it('answers fetch without the key in the body', async () => {
    const response = await create({
      who: 'admin',
      fields: { name: '下書きプレビュー', permission_GET: 'on', permission_drafts: 'on' },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const key = flashOf(response)!.values.newKey as string;
    expect(text).not.toContain(key);
    expect(JSON.parse(text)).toMatchObject({ ok: true, redirectTo: '/admin/api-keys' });
    clearApiKeyCache();
    expect(await contentApi(key, 'GET', 'posts')).toBe(200);
    expect(await contentApi(key, 'POST', 'categories', { name: 'x' })).toBe(400);
    const [row] = (await listApiKeys(database.db)).filter((k) => k.name === '下書きプレビュー');
    expect(row?.permissions).toEqual(['GET', 'drafts']);
  });

  it('sees active keys first, newest first, never a key itself', async () => {
    const listed = await listKeysForConsole();
    const states = listed.map((k) => (k.revokedAt ? 'revoked' : 'active'));
    expect(states).toContain('revoked');
    expect(states.indexOf('revoked')).toBe(states.lastIndexOf('active') + 1);
    const active = listed.filter((k) => !k.revokedAt).map((k) => k.createdAt.getTime());
    expect(active).toEqual([...active].sort((a, b) => b - a));
    expect(Object.keys(listed[0]!).sort()).toEqual(
      ['createdAt', 'id', 'keyPrefix', 'lastUsedAt', 'name', 'permissions', 'revokedAt'].sort(),
    );
  });

  it('gets a 404 for a key that does not exist', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-key']) {
      const response = await revoke(id, { who: 'admin' });
      expect(response.status, id).toBe(404);
    }
  });
});
