/** What a key of the content API may do (checked by src/server/services/cms/api-keys.ts). */
export const API_PERMISSIONS = ['GET', 'drafts', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiPermission = (typeof API_PERMISSIONS)[number];

/** A key as the console lists it: never the key, only its first characters. */
export type ApiKeyView = {
  id: string;
  name: string;
  keyPrefix: string;
  permissions: readonly string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/**
 * The content API's permissions (src/server/services/cms/api-keys.ts) as the console names them, in the
 * order the form lists them, with what each lets a key do.
 */
export const PERMISSION_CHOICES: readonly {
  permission: ApiPermission;
  label: string;
  hint: string;
}[] = [
  { permission: 'GET', label: '読み取り', hint: '公開中のコンテンツを取得します。' },
  {
    permission: 'drafts',
    label: '下書きの読み取り',
    hint: '下書きや公開前の内容も取得します（「読み取り」も必要です）。',
  },
  { permission: 'POST', label: '作成', hint: 'コンテンツを新しく作成します（ID は自動）。' },
  {
    permission: 'PUT',
    label: '作成・置換',
    hint: 'ID を指定してコンテンツを作成、または丸ごと置き換えます。',
  },
  { permission: 'PATCH', label: '更新', hint: '既存のコンテンツの一部を更新します。' },
  { permission: 'DELETE', label: '削除', hint: 'コンテンツを削除します。' },
];

export const PERMISSION_LABELS: Record<ApiPermission, string> = Object.fromEntries(
  PERMISSION_CHOICES.map((c) => [c.permission, c.label]),
) as Record<ApiPermission, string>;

/**
 * The form's checkbox for a permission. One field per permission: a plain post keeps only the
 * first value of a repeated field name (src/server/platform/http/form-endpoint.ts).
 */
export const permissionField = (permission: ApiPermission) => `permission_${permission}`;

/** The values of the create form a one-time message carries (DONE_FLAG with them on success). */
export const NEW_KEY_VALUE = 'newKey';
export const NEW_KEY_NAME_VALUE = 'newKeyName';
