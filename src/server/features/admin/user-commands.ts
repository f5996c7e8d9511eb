import 'server-only';
import { csvRecord } from '@/lib/csv';
import { z } from '@/lib/zod';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { choosePlan, listPlans, unknownPlanMessage } from '@/server/features/billing';
import { CmsApiError } from '@/server/services/cms/errors';
import { findEndpoint } from '@/lib/cms/model';
import { getContent } from '@/server/services/cms/store';
import type { Db } from '@/server/platform/db/client';
import {
  createAuth,
  DISPLAY_NAME_MAX,
  emailField,
  passwordProblem,
} from '@/server/features/identity';
import { ROLES } from '@/lib/identity/roles';
import { listOutboxMails } from '@/server/platform/mail/outbox';
import {
  findUserByEmail,
  grantComplimentary,
  listNewsletterSubscribers,
  listSubscriptions,
  listUsers,
  revokeComplimentary,
  setPartnerId,
  setUserRole,
  type UserSummary,
} from '@/server/features/profiles';
import { getAppSecret } from '@/server/platform/security/app-secret';
import { UsageError, defineCommand, defineCommandWithoutFlags } from './command';
import { grantDays } from './grant-days';
import { isoDateJa } from '@/lib/format';

/**
 * Staff commands for accounts: creating staff and comped writers, roles, partners,
 * complimentary plans, and reading the mail outbox on a machine without SMTP.
 */

/** A boolean flag: `--full` alone, or `--full=true|false`. */
const flag = z
  .union([z.literal(true), z.enum(['true', 'false'])])
  .optional()
  .transform((value) => value === true || value === 'true');

const NO_PARTNER = ['', 'none'];

export async function requireUser(db: Db, email: string): Promise<UserSummary> {
  const found = await findUserByEmail(db, email);
  if (!found) throw new UsageError(`メールアドレス ${email} のユーザーはいません。`);
  return found;
}

/** better-auth on the CLI's database, signed as the site signs (src/server/features/identity/app-auth.ts). */
function cliAuth(db: Db) {
  return createAuth(db, { secret: `auth:${getAppSecret().toString('base64url')}` });
}

/** Audits what a command did to one user, with the command line's user as the actor. */
const auditUser = (
  db: Db,
  actor: string,
  action: string,
  userId: string,
  detail: Record<string, unknown>,
): Promise<void> => recordAudit(db, { actor, action, target: `user:${userId}`, detail });

/** The roles as the --role flag takes them: from ROLES, so the help never leaves one out. */
const ROLE_CHOICES = ROLES.join('|');

const createUserCommand = defineCommand({
  name: 'create-user',
  summary: '確認済みのユーザーを作成する (スタッフ・招待した書き手用。確認メールは送りません)',
  usage: `create-user --email E --password P [--name NAME] [--role ${ROLE_CHOICES}]`,
  args: z
    .object({
      email: emailField,
      password: z.string().max(1000),
      name: z.string().trim().min(1).max(DISPLAY_NAME_MAX).optional(),
      role: z.enum(ROLES).default('member'),
    })
    .strict(),
  async run({ database, actor }, { email, password, name, role }) {
    const problem = passwordProblem(password, email);
    if (problem) throw new UsageError(`--password: ${problem}`);
    if (await findUserByEmail(database.db, email))
      throw new UsageError(`メールアドレス ${email} のユーザーはすでにいます。`);

    const ctx = await cliAuth(database.db).$context;
    const hash = await ctx.password.hash(password);
    const displayName = name ?? email.split('@')[0]!;
    // The user-create hook of auth.ts adds both profile records.
    const created = await ctx.internalAdapter.createUser(
      { email, name: displayName, emailVerified: true, role },
      { method: 'admin' },
    );
    try {
      await ctx.internalAdapter.linkAccount({
        userId: created.id,
        providerId: 'credential',
        accountId: created.id,
        password: hash,
      });
    } catch (error) {
      // A user without a credential could never sign in and would block the address.
      await ctx.internalAdapter.deleteUser(created.id);
      throw error;
    }
    await auditUser(database.db, actor, 'user-created', created.id, { email, role });
    return [`ユーザーを作成しました: ${email} (${displayName}, ${role}, id ${created.id})`];
  },
});

const setRoleCommand = defineCommand({
  name: 'set-role',
  summary: `ユーザーの権限 (${ROLES.join(' / ')}) を変更する`,
  usage: `set-role --email E --role ${ROLE_CHOICES}`,
  args: z.object({ email: emailField, role: z.enum(ROLES) }).strict(),
  async run({ database, actor }, { email, role }) {
    const found = await requireUser(database.db, email);
    if (found.role === role) return [`${email} はすでに ${role} です。何も変更していません。`];
    await setUserRole(database.db, found.id, role);
    await auditUser(database.db, actor, 'role-changed', found.id, { from: found.role, to: role });
    return [`${email} の権限を ${found.role} から ${role} に変更しました。`];
  },
});

/** The partner's name when `id` is a published item of `partners`, else null. */
async function publishedPartnerName(db: Db, id: string): Promise<string | null> {
  try {
    const item = await getContent(
      db,
      findEndpoint('partners')!,
      id,
      { depth: 0 },
      { kind: 'published' },
    );
    return typeof item.name === 'string' ? item.name : id;
  } catch (error) {
    if (error instanceof CmsApiError && error.status === 404) return null;
    throw error;
  }
}

const setPartnerCommand = defineCommand({
  name: 'set-partner',
  summary: 'ユーザーをパートナー企業 (partners の公開中のコンテンツ) に紐づける。none で解除',
  usage: 'set-partner --email E --partner PARTNER_ID|none',
  args: z
    .object({
      email: emailField,
      partner: z
        .string()
        .trim()
        .refine((v) => NO_PARTNER.includes(v) || /^[A-Za-z0-9_-]{1,50}$/.test(v), {
          error: 'パートナーのコンテンツ ID を指定してください (解除は none)。',
        })
        .transform((v) => (NO_PARTNER.includes(v) ? '' : v)),
    })
    .strict(),
  async run({ database, actor }, { email, partner }) {
    const found = await requireUser(database.db, email);
    if (found.partnerId === null) throw new Error(`${email} の公開プロフィールがありません。`);
    let label = '';
    if (partner !== '') {
      const name = await publishedPartnerName(database.db, partner);
      if (name === null)
        throw new UsageError(`公開中のパートナー企業 ${partner} はありません (partners)。`);
      label = `${name} (${partner})`;
    }
    if (found.partnerId === partner)
      return [
        partner === ''
          ? `${email} にパートナーは設定されていません。何も変更していません。`
          : `${email} のパートナーはすでに ${label} です。何も変更していません。`,
      ];
    await setPartnerId(database.db, found.id, partner);
    await auditUser(database.db, actor, 'partner-changed', found.id, {
      from: found.partnerId,
      to: partner,
    });
    return partner === ''
      ? [`${email} のパートナーを解除しました。`]
      : [`${email} のパートナーを ${label} にしました。`];
  },
});

const listUsersCommand = defineCommand({
  name: 'list-users',
  summary: 'ユーザーを新しい順に一覧する (権限、確認済みか、パートナー、現在のプラン)',
  usage: 'list-users [--limit 50]',
  args: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) }).strict(),
  async run({ database }, { limit }) {
    const users = await listUsers(database.db, limit);
    if (users.length === 0) return ['ユーザーはまだいません。'];
    return Promise.all(
      users.map(async (u) => {
        const subscriptions = await listSubscriptions(database.db, u.id);
        const current = subscriptions.find((s) => s.status === 'active' || s.status === 'trialing');
        const plan = current?.items[0]?.price.product.name ?? '-';
        return [
          u.email,
          u.name,
          u.role,
          u.emailVerified ? '確認済み' : '未確認',
          `partner=${u.partnerId || '-'}`,
          `plan=${plan}`,
          isoDateJa(u.createdAt),
        ].join('  ');
      }),
    );
  },
});

const newsletterCommand = defineCommandWithoutFlags({
  name: 'newsletter-subscribers',
  summary:
    'ニュースレターの配信を希望した読者 (確認済みのアドレス) を CSV で表示する (配信ツールへの取り込み用)',
  async run({ database }) {
    const subscribers = await listNewsletterSubscribers(database.db);
    return [
      csvRecord(['email', 'name', 'registered_at']),
      ...subscribers.map((s) => csvRecord([s.email, s.name, s.since.toISOString()])),
    ];
  },
});

const grantPlanCommand = defineCommand({
  name: 'grant-plan',
  summary: '無償のプランを付与する (--days を省くと期限なし)',
  usage: 'grant-plan --email E --plan monthly|yearly|NAME [--status active|trialing] [--days N]',
  args: z
    .object({
      email: emailField,
      plan: z.string().trim().min(1).max(100),
      status: z.enum(['active', 'trialing']).default('active'),
      days: grantDays,
    })
    .strict(),
  async run({ database, actor }, { email, plan: wanted, status, days }) {
    const found = await requireUser(database.db, email);
    // Only the catalogue's plans: a typed name would show the reader a plan never sold.
    const plans = await listPlans(database.db);
    const chosen = choosePlan(plans, wanted);
    if (!chosen) throw new UsageError(unknownPlanMessage(plans, wanted));
    const plan = chosen.name;
    const granted = await grantComplimentary(database.db, {
      userId: found.id,
      planName: plan,
      status,
      days,
    });
    await auditUser(database.db, actor, 'plan-granted', found.id, {
      plan,
      planKey: chosen.key,
      status,
      days: days ?? null,
      subscription: granted.id,
    });
    const end = granted.current_period_end ? `${granted.current_period_end} まで` : '期限なし';
    return [`${email} にプラン「${plan}」(${status}, ${end}) を付与しました。`];
  },
});

const revokePlanCommand = defineCommand({
  name: 'revoke-plan',
  summary: '付与した無償のプランを取り消す (決済のプランはそのまま)',
  usage: 'revoke-plan --email E',
  args: z.object({ email: emailField }).strict(),
  async run({ database, actor }, { email }) {
    const found = await requireUser(database.db, email);
    const count = await revokeComplimentary(database.db, found.id);
    await auditUser(database.db, actor, 'plan-revoked', found.id, { count });
    return count === 0
      ? [`${email} に有効な無償プランはありませんでした (取り消し 0 件)。`]
      : [`${email} の無償プランを ${count} 件取り消しました。`];
  },
});

const mailOutboxCommand = defineCommand({
  name: 'mail-outbox',
  summary:
    '送信・保管したメールを新しい順に表示する (--full で本文も。使用済み・期限切れのリンクは削除済み)',
  usage: 'mail-outbox [--to ADDRESS] [--limit 10] [--full]',
  args: z
    .object({
      to: emailField.optional(),
      limit: z.coerce.number().int().min(1).max(1000).default(10),
      full: flag,
    })
    .strict(),
  async run({ database, actor }, { to, limit, full }) {
    // Shell access to the machine is an admin's: the secret mails' bodies are shown, and audited.
    const mails = await listOutboxMails(
      database.db,
      { role: 'admin', actor },
      { to, limit, bodies: full },
    );
    if (mails.length === 0)
      return [to ? `${to} 宛てのメールはありません。` : 'メールはまだありません。'];
    return mails.flatMap((m) => {
      const link =
        m.link === 'removed'
          ? '  [リンク削除済み]'
          : m.link === 'live' && m.linkExpiresAt
            ? `  [リンク有効: ${m.linkExpiresAt.toISOString()} まで]`
            : '';
      const head =
        `${m.createdAt.toISOString()}  ${m.kind}  to=${m.to}  ${m.subject}` +
        (m.status === 'stored' ? '' : `  [${m.status}${m.error ? `: ${m.error}` : ''}]`) +
        link;
      if (!full) return [head];
      return [head, m.text ?? '(本文は保管されていません)', ''];
    });
  },
});

export const userCommands = [
  createUserCommand,
  setRoleCommand,
  setPartnerCommand,
  listUsersCommand,
  newsletterCommand,
  grantPlanCommand,
  revokePlanCommand,
  mailOutboxCommand,
];
