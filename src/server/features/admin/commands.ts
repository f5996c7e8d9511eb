import 'server-only';
import { sql } from 'drizzle-orm';
import { z } from '@/lib/zod';
import { listAudit, recordAudit } from '@/server/platform/audit/audit-log';
import {
  createApiKey,
  listApiKeys,
  parsePermissions,
  revokeApiKey,
} from '@/server/services/cms/api-keys';
import { publishDueItems } from '@/server/features/console';
import { findDraftKey } from '@/server/services/cms/store';
import { env } from '@/env';
import { queryRows } from '@/server/platform/db/client';
import {
  type AdminCommand,
  type AdminContext,
  type RawArgs,
  UsageError,
  defineCommand,
  defineCommandWithoutFlags,
} from './command';
import { backupCommands } from './backup-commands';
import { billingCommands } from './billing-commands';
import { invoiceCommands } from './invoice-commands';
import { newsletterCommands } from './newsletter-commands';
import { organizationCommands } from './organization-commands';
import { podcastCommands } from './podcast-commands';
import { transferCommands } from './transfer-commands';
import { userCommands } from './user-commands';

/**
 * Every admin CLI command. Later domains add theirs to this list; each one validates its
 * flags with zod and returns the lines that say what it did.
 */

const dbStatus = defineCommandWithoutFlags({
  name: 'db-status',
  summary: 'データベースの種類・場所・適用済みマイグレーションを表示する',
  async run({ database }) {
    const [migrations] = await queryRows<{ count: number }>(
      database.db,
      sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`,
    );
    const [tables] = await queryRows<{ count: number }>(
      database.db,
      sql`SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    return [
      `database: ${database.kind} (${database.location})`,
      `migrations applied: ${migrations?.count ?? 0}`,
      `tables: ${tables?.count ?? 0}`,
    ];
  },
});

const auditLog = defineCommand({
  name: 'audit-log',
  summary: '監査ログ (サインイン、権限・プラン変更など) の新しい順に表示する',
  usage: 'audit-log [--limit 20]',
  args: z
    .object({
      limit: z.coerce.number().int().min(1).max(1000).default(20),
    })
    .strict(),
  async run({ database }, { limit }) {
    const rows = await listAudit(database.db, limit);
    if (rows.length === 0) return ['監査ログはまだありません。'];
    return rows.map(
      (r) =>
        `${r.occurredAt.toISOString()}  ${r.action}  actor=${r.actor}` +
        (r.target ? `  target=${r.target}` : '') +
        (Object.keys(r.detail).length ? `  ${JSON.stringify(r.detail)}` : ''),
    );
  },
});

const createApiKeyCommand = defineCommand({
  name: 'create-api-key',
  summary: 'コンテンツ API のキーを作成する (最後の行にキーだけを表示。再表示はできません)',
  usage: 'create-api-key --name NAME --permissions GET,drafts,POST,PUT,PATCH,DELETE',
  args: z
    .object({
      name: z.string().trim().min(1).max(100),
      permissions: z.string().transform((value, ctx) => {
        try {
          return parsePermissions(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    })
    .strict(),
  async run({ database, actor }, { name, permissions }) {
    const { id, key } = await createApiKey(database.db, { name, permissions });
    await recordAudit(database.db, {
      actor,
      action: 'api-key-created',
      target: `api_key:${id}`,
      detail: { name, permissions },
    });
    return [`API キーを作成しました: ${name} (id ${id}, 権限 ${permissions.join(',')})`, key];
  },
});

const listApiKeysCommand = defineCommandWithoutFlags({
  name: 'list-api-keys',
  summary: 'コンテンツ API のキーを一覧する (キーそのものは表示しません)',
  async run({ database }) {
    const keys = await listApiKeys(database.db);
    if (keys.length === 0) return ['API キーはまだありません。'];
    return keys.map(
      (k) =>
        `${k.id}  ${k.keyPrefix}…  ${k.name}  [${k.permissions.join(',')}]` +
        (k.revokedAt ? `  (無効化 ${k.revokedAt.toISOString()})` : ''),
    );
  },
});

const revokeApiKeyCommand = defineCommand({
  name: 'revoke-api-key',
  summary: 'コンテンツ API のキーを無効にする',
  usage: 'revoke-api-key --id KEY_ID',
  args: z.object({ id: z.uuid() }).strict(),
  async run({ database, actor }, { id }) {
    if (!(await revokeApiKey(database.db, id)))
      return [`有効な API キー ${id} はありません。何も変更していません。`];
    await recordAudit(database.db, {
      actor,
      action: 'api-key-revoked',
      target: `api_key:${id}`,
    });
    return [`API キー ${id} を無効にしました。`];
  },
});

const previewUrlCommand = defineCommand({
  name: 'preview-url',
  summary: '下書きのプレビュー URL を表示する (記事・求人)',
  usage: 'preview-url --endpoint posts|jobs --id CONTENT_ID',
  args: z
    .object({ endpoint: z.enum(['posts', 'jobs']), id: z.string().regex(/^[A-Za-z0-9_-]{1,50}$/) })
    .strict(),
  async run({ database }, { endpoint, id }) {
    const draftKey = await findDraftKey(database.db, endpoint, id);
    if (!draftKey) return [`${endpoint}/${id} に未公開の下書きはありません。`];
    const path = endpoint === 'posts' ? `/posts/${id}/preview` : `/jobs/preview/${id}`;
    return [`${env().SITE_URL}${path}?draftKey=${encodeURIComponent(draftKey)}`];
  },
});

const runScheduledCommand = defineCommand({
  name: 'run-scheduled',
  summary:
    '予約公開の時刻が来た記事・求人をいま公開する (--at: その時刻までの予約を。既定は現在時刻。サーバーも5秒ごとに行います)',
  usage: 'run-scheduled [--at 2026-04-01T09:00:00+09:00]',
  args: z
    .object({
      // Given by the tests (and an operator catching up): the scheduler's round as of that time,
      // so nobody waits for the clock.
      at: z.iso.datetime({ offset: true }).optional(),
    })
    .strict(),
  async run({ database, actor }, { at }) {
    const due = at ? new Date(at) : new Date();
    const published = await publishDueItems(database.db, due);
    // An `--at` ahead of the clock publishes early: who did it stays on record.
    await recordAudit(database.db, {
      actor,
      action: 'scheduled-run',
      detail: { at: due.toISOString(), published },
    });
    return [`${due.toISOString()} までの予約公開を実行しました: ${published} 件を公開しました。`];
  },
});

export const adminCommands: AdminCommand[] = [
  dbStatus,
  auditLog,
  createApiKeyCommand,
  listApiKeysCommand,
  revokeApiKeyCommand,
  previewUrlCommand,
  runScheduledCommand,
  ...userCommands,
  ...billingCommands,
  ...invoiceCommands,
  ...organizationCommands,
  ...newsletterCommands,
  ...podcastCommands,
  ...transferCommands,
  ...backupCommands,
];

export function helpText(): string[] {
  const width = Math.max(...adminCommands.map((c) => c.name.length));
  return [
    '使い方: npm run admin -- <command> [--flag value ...]',
    '',
    'コマンド:',
    ...adminCommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  このヘルプを表示する`,
    '',
    '例:',
    ...adminCommands.map((c) => `  npm run admin -- ${c.usage}`),
  ];
}

export function findCommand(name: string): AdminCommand {
  const command = adminCommands.find((c) => c.name === name);
  if (!command)
    throw new UsageError(
      `不明なコマンドです: ${name}\n"npm run admin -- help" で一覧を表示します。`,
    );
  return command;
}

/** Validates the flags and runs one command. Throws UsageError for bad input, before any change. */
export async function runAdminCommand(
  ctx: AdminContext,
  name: string,
  raw: RawArgs,
): Promise<string[]> {
  const command = findCommand(name);
  const parsed = command.args.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) =>
      i.code === 'unrecognized_keys'
        ? `不明なオプションです: ${i.keys.map((k) => `--${k}`).join(', ')}`
        : `--${String(i.path[0] ?? '?')}: ${i.message}`,
    );
    throw new UsageError([...problems, `使い方: npm run admin -- ${command.usage}`].join('\n'));
  }
  return command.run(ctx, parsed.data);
}
