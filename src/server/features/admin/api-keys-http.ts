import 'server-only';
import {
  API_PERMISSIONS,
  type ApiKeyView,
  type ApiPermission,
  NEW_KEY_NAME_VALUE,
  NEW_KEY_VALUE,
  PERMISSION_LABELS,
  permissionField,
} from '@/lib/cms/api-key-permissions';
import { z } from '@/lib/zod';
import { recordAudit } from '@/server/platform/audit/audit-log';
import {
  createApiKey,
  listApiKeys,
  parsePermissions,
  revokeApiKey,
} from '@/server/services/cms/api-keys';
import { getDb } from '@/server/platform/db/client';
import { gatedEndpoint, isAdmin, type ViewerOption } from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import type { FormInput, FormResult } from '@/server/platform/http/form-endpoint';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { refusedFields } from '@/server/platform/forms/submit';

/**
 * The route handlers of /admin/api-keys, under /api/admin/api-keys/**: create a content API
 * key, revoke one. Admins only: anyone else, editors included, signed in or not, gets a bare
 * 404, as the page is, so the routes confirm nothing. The services are the CLI's
 * (src/server/services/cms/api-keys.ts), which do not audit; the CLI and these handlers each do.
 *
 * A new key is shown once: it travels to the page in the one-time message cookie (HttpOnly,
 * a minute at most, taken and deleted by the next page load:
 * src/server/features/front/page-requests.ts), never in a URL, an answer's body, a log line or
 * the audit record.
 */

export const API_KEYS_PAGE = '/admin/api-keys';

const NAME_MAX = 100;
// A plain post's fields are a name and six checkboxes.
const MAX_BYTES = 8 * 1024;

export type ApiKeysHttpOptions = ViewerOption;

/** The key forms' endpoint options: their page, size and one-time values. */
const keyForm = (options: ApiKeysHttpOptions, name: string) => ({
  name,
  formPage: API_KEYS_PAGE,
  maxBytes: MAX_BYTES,
  // Checked by the handler's schema, after the gate: a stranger learns nothing from a 400.
  keepControlChars: ['name'],
  flashValues: clippedFields({
    name: 300,
    ...Object.fromEntries(API_PERMISSIONS.map((p) => [permissionField(p), 10])),
  }),
  viewer: options.viewer,
});

/** Success: back to the page with a one-time message, and whatever else it is to show once. */
const done = (message: string, values: Record<string, string> = {}): FormResult =>
  doneAnswer(message, API_KEYS_PAGE, values);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const nameField = z
  .string({ error: '名前を入力してください。' })
  .trim()
  .min(1, '名前を入力してください。')
  .max(NAME_MAX, `名前は ${NAME_MAX} 文字以内で入力してください。`)
  .refine((name) => !CONTROL.test(name) && name.isWellFormed(), '使えない文字が含まれています。');

/** A checked box: "on" from a browser (no value attribute), "1" or true from other clients. */
const isChecked = (value: unknown) => value === 'on' || value === '1' || value === true;

/** The create form's fields as a name and permissions, or the messages to show beside them. */
export function readNewKey(
  input: FormInput,
):
  | { ok: true; name: string; permissions: ApiPermission[] }
  | { ok: false; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  const name = nameField.safeParse(input.name);
  if (!name.success) fieldErrors.name = name.error.issues[0]?.message ?? '名前を確認してください。';
  const chosen = API_PERMISSIONS.filter((p) => isChecked(input[permissionField(p)]));
  if (chosen.length === 0) fieldErrors.permissions = '権限を一つ以上選んでください。';
  else if (chosen.includes('drafts') && !chosen.includes('GET'))
    fieldErrors.permissions = `「${PERMISSION_LABELS.drafts}」には「${PERMISSION_LABELS.GET}」も必要です。`;
  if (!name.success || fieldErrors.permissions) return { ok: false, fieldErrors };
  // The service's own rules, so that one added there holds here too.
  return { ok: true, name: name.data, permissions: parsePermissions(chosen.join(',')) };
}

/**
 * The keys as /admin/api-keys lists them (the page may not read the content service's modules
 * itself): active ones first, then the newest. The caller has checked that the viewer is an admin.
 */
export async function listKeysForConsole(): Promise<ApiKeyView[]> {
  const rows = await listApiKeys(await getDb());
  return rows
    .map((row) => ({
      id: row.id,
      name: row.name,
      keyPrefix: row.keyPrefix,
      permissions: row.permissions,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
      revokedAt: row.revokedAt,
    }))
    .sort((a, b) =>
      !a.revokedAt !== !b.revokedAt
        ? a.revokedAt
          ? 1
          : -1
        : b.createdAt.getTime() - a.createdAt.getTime(),
    );
}

/** The handlers, given how to find the viewer (tests); the routes use `apiKeysRoutes`. */
export function apiKeysHandlers(options: ApiKeysHttpOptions = {}) {
  return {
    /** POST /api/admin/api-keys: name, permission_{GET,drafts,POST,PUT,PATCH,DELETE}. */
    create: gatedEndpoint(
      keyForm(options, 'admin-api-key-create'),
      isAdmin,
      async ({ input, actor, ip }) => {
        const read = readNewKey(input);
        if (!read.ok) return refusedFields(read.fieldErrors);
        const db = await getDb();
        const { id, key } = await createApiKey(db, read);
        await recordAudit(db, {
          actor,
          action: 'api-key-created',
          target: `api_key:${id}`,
          ip,
          detail: { name: read.name, permissions: read.permissions },
        });
        return done(`APIキー「${read.name}」を作成しました。`, {
          [NEW_KEY_VALUE]: key,
          [NEW_KEY_NAME_VALUE]: read.name,
        });
      },
    ),

    /** POST /api/admin/api-keys/{id}/revoke. */
    revoke: (request: Request, id: string) =>
      gatedEndpoint(keyForm(options, 'admin-api-key-revoke'), isAdmin, async ({ actor, ip }) => {
        if (!z.uuid().safeParse(id).success) return { ok: false, status: 404 };
        const db = await getDb();
        const found = (await listApiKeys(db)).find((k) => k.id === id);
        if (!found) return { ok: false, status: 404 };
        // Revoked meanwhile (another tab, the CLI): nothing to do and nothing to audit.
        if (!(await revokeApiKey(db, id)))
          return done(`APIキー「${found.name}」はすでに無効になっています。`);
        await recordAudit(db, {
          actor,
          action: 'api-key-revoked',
          target: `api_key:${id}`,
          ip,
          detail: { name: found.name },
        });
        return done(
          `APIキー「${found.name}」を無効にしました。このキーを使うリクエストは拒否されます。`,
        );
      })(request),
  };
}

export const apiKeysRoutes = apiKeysHandlers();
