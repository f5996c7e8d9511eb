import 'server-only';
import { sql } from 'drizzle-orm';
import { z } from '@/lib/zod';
import { listAudit } from '@/server/audit/audit-log';
import { queryRows } from '@/server/db/client';
import {
  type AdminCommand,
  type AdminContext,
  type RawArgs,
  UsageError,
  defineCommand,
} from './command';

/**
 * Every admin CLI command. Later domains add theirs to this list; each one validates its
 * flags with zod and returns the lines that say what it did.
 */

const dbStatus = defineCommand({
  name: 'db-status',
  summary: 'データベースの種類・場所・適用済みマイグレーションを表示する',
  usage: 'db-status',
  args: z.object({}).strict(),
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

export const adminCommands: AdminCommand[] = [dbStatus, auditLog];

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
