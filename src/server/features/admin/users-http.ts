import 'server-only';
import { ROLE_LABELS } from '@/lib/identity/user-labels';
import { z, fieldErrors } from '@/lib/zod';
import { noteAudienceChange } from '@/server/features/audience';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { choosePlan, listPlans, unknownPlanMessage } from '@/server/features/billing';
import { getDb } from '@/server/platform/db/client';
import {
  appAuth,
  type AppUser,
  gatedEndpoint,
  isAdmin,
  type ViewerOption,
} from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import type { FormInput, FormResult } from '@/server/platform/http/form-endpoint';
import { ROLES } from '@/lib/identity/roles';
import { getPartner, PARTNER_ID, partnerDeps } from '@/server/features/partners';
import {
  grantComplimentary,
  revokeComplimentary,
  setPartnerId,
  setUserRole,
} from '@/server/features/profiles';
import { type UserDetail, getUserDetail } from './users-directory';
import { grantDays } from './grant-days';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { refusedFields } from '@/server/platform/forms/submit';

/**
 * The route handlers of the admin user screens (/admin/users/{id}), under
 * /api/admin/users/{id}/**: role, complimentary plan, partner membership, sign-out everywhere.
 * Admins only: anyone else (editors included), signed in or not, gets the bare 404 the pages
 * give, before their input is looked at, so no one learns that a route or a user exists. Each
 * change is audited under the admin CLI's action names (src/server/features/admin/user-commands.ts),
 * with the admin as actor and the client's address. A plain post gets a 303 back to the
 * user's page with a one-time message; `formKey` comes back with a failure, so the page puts
 * the errors beside the right form.
 */

export const USERS_PAGE = '/admin/users';
export const userPage = (userId: string) => `${USERS_PAGE}/${encodeURIComponent(userId)}`;

/** better-auth's ids (32 letters and digits), with room for other generators. */
export const USER_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const SELF_DEMOTION_MESSAGE =
  'ご自身の管理者権限は外せません。管理者が誰もいなくなるのを防ぐため、ほかの管理者に変更を依頼してください。';

const succeeded = doneAnswer;

// Only the forms' own short fields go back with a failure (a cookie past 4 KB is dropped).
const flashValues = clippedFields({
  formKey: 100,
  role: 20,
  plan: 300,
  status: 20,
  days: 40,
  partner: 120,
});

const roleInput = z.object({
  role: z.enum(ROLES, {
    error: '権限を「会員」「寄稿者」「編集者」「管理者」から選んでください。',
  }),
});

const grantInput = z.object({
  // A key or name of the catalogue's plans; grantPlan checks it is one.
  plan: z
    .string({ error: 'プランを選んでください。' })
    .trim()
    .min(1, { error: 'プランを選んでください。' })
    .max(100, { error: 'プランを一覧から選んでください。' }),
  status: z.enum(['active', 'trialing'], {
    error: '状態を「有効」か「トライアル」から選んでください。',
  }),
  days: grantDays,
});

const partnerInput = z.object({
  partner: z
    .string({ error: 'パートナー企業を選んでください。' })
    .trim()
    .refine((v) => v === '' || PARTNER_ID.test(v), {
      error: 'パートナー企業を一覧から選んでください。',
    }),
});

export type AdminUsersOptions = ViewerOption;

type AdminContext = {
  input: FormInput;
  target: UserDetail;
  admin: AppUser;
  ip: string | null;
};

/** gatedEndpoint() for admins about one user: an unknown user id gets the same bare 404. */
function adminUserEndpoint(
  options: AdminUsersOptions,
  name: string,
  userId: string,
  handler: (ctx: AdminContext) => Promise<FormResult>,
): (request: Request) => Promise<Response> {
  return gatedEndpoint(
    {
      name,
      maxBytes: 8 * 1024,
      formPage: USER_ID.test(userId) ? userPage(userId) : USERS_PAGE,
      flashValues,
      viewer: options.viewer,
    },
    isAdmin,
    async ({ input, user, ip }) => {
      const target = USER_ID.test(userId) ? await getUserDetail(await getDb(), userId) : null;
      if (!target) return { ok: false, status: 404 };
      return handler({ input, target, admin: user, ip });
    },
  );
}

/** The CLI's record of the same change, with the admin as actor and where they asked from. */
async function audit(ctx: AdminContext, action: string, detail: Record<string, unknown>) {
  await recordAudit(await getDb(), {
    actor: `user:${ctx.admin.id}`,
    action,
    target: `user:${ctx.target.id}`,
    ip: ctx.ip,
    detail,
  });
}

async function changeRole(ctx: AdminContext): Promise<FormResult> {
  const parsed = roleInput.safeParse(ctx.input);
  if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
  const { role } = parsed.data;
  const { target } = ctx;
  if (target.id === ctx.admin.id && role !== 'admin')
    return {
      ok: false,
      status: 400,
      message: SELF_DEMOTION_MESSAGE,
      fieldErrors: { role: SELF_DEMOTION_MESSAGE },
    };
  if (target.role === role)
    return succeeded(
      `${target.email} はすでに${ROLE_LABELS[role]}です。何も変更していません。`,
      userPage(target.id),
    );
  await setUserRole(await getDb(), target.id, role);
  await audit(ctx, 'role-changed', { from: target.role, to: role });
  return succeeded(
    `${target.email} の権限を「${ROLE_LABELS[target.role]}」から「${ROLE_LABELS[role]}」に変更しました。`,
    userPage(target.id),
  );
}

async function grantPlan(ctx: AdminContext): Promise<FormResult> {
  const parsed = grantInput.safeParse(ctx.input);
  if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
  const { status, days } = parsed.data;
  const db = await getDb();
  const plans = await listPlans(db);
  const chosen = choosePlan(plans, parsed.data.plan);
  if (!chosen) return refusedFields({ plan: unknownPlanMessage(plans, parsed.data.plan) });
  const plan = chosen.name;
  const granted = await grantComplimentary(db, {
    userId: ctx.target.id,
    planName: plan,
    status,
    days,
  });
  await audit(ctx, 'plan-granted', {
    plan,
    planKey: chosen.key,
    status,
    days: days ?? null,
    subscription: granted.id,
  });
  const term = days ? `${days}日間` : '期限なし';
  return succeeded(
    `${ctx.target.email} に無償プラン「${plan}」（${status === 'trialing' ? 'トライアル' : '有効'}、${term}）を付与しました。`,
    userPage(ctx.target.id),
  );
}

async function revokePlan(ctx: AdminContext): Promise<FormResult> {
  const count = await revokeComplimentary(await getDb(), ctx.target.id);
  await audit(ctx, 'plan-revoked', { count });
  return succeeded(
    count === 0
      ? `${ctx.target.email} に有効な無償プランはありませんでした。何も変更していません。`
      : `${ctx.target.email} の無償プランを${count}件取り消しました。決済によるプランはそのままです。`,
    userPage(ctx.target.id),
  );
}

async function changePartner(ctx: AdminContext): Promise<FormResult> {
  const parsed = partnerInput.safeParse(ctx.input);
  if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
  const { partner } = parsed.data;
  const { target } = ctx;
  if (target.partnerId === null)
    return {
      ok: false,
      status: 409,
      message: 'このユーザーには公開プロフィールがないため、パートナー企業を設定できません。',
      fieldErrors: {},
    };
  // Only a published `partners` item, as the CLI's set-partner requires.
  const found = partner === '' ? null : await getPartner(await partnerDeps(), partner);
  if (partner !== '' && !found)
    return refusedFields({ partner: '公開中のパートナー企業を一覧から選んでください。' });
  if (target.partnerId === partner)
    return succeeded(
      partner === ''
        ? `${target.email} にパートナー企業は設定されていません。何も変更していません。`
        : `${target.email} はすでに${found!.name}のメンバーです。何も変更していません。`,
      userPage(target.id),
    );
  await setPartnerId(await getDb(), target.id, partner);
  await audit(ctx, 'partner-changed', { from: target.partnerId, to: partner });
  return succeeded(
    partner === ''
      ? `${target.email} のパートナー企業を解除しました。`
      : `${target.email} を${found!.name}のメンバーにしました。`,
    userPage(target.id),
  );
}

async function signOutEverywhere(ctx: AdminContext): Promise<FormResult> {
  const authContext = await (await appAuth()).$context;
  const count = ctx.target.activeSessions;
  // better-auth's own deletion, so any session store it keeps is cleared too.
  await authContext.internalAdapter.deleteUserSessions(ctx.target.id);
  // A page cached for the member's audience must not be served on their old cookie.
  noteAudienceChange(ctx.target.id);
  await audit(ctx, 'sessions-revoked', { count });
  // Signing oneself out everywhere ends this session too: on to the login page.
  if (ctx.target.id === ctx.admin.id) return { ok: true, redirectTo: '/login' };
  return succeeded(
    count === 0
      ? `${ctx.target.email} はどの端末からもログインしていませんでした。`
      : `${ctx.target.email} を${count}台の端末からログアウトさせました。`,
    userPage(ctx.target.id),
  );
}

const planIntent = z.enum(['grant', 'revoke']);

/** The handlers, given how to find the viewer (tests); the routes use `adminUserRoutes`. */
export function adminUserHandlers(options: AdminUsersOptions = {}) {
  return {
    /** POST /api/admin/users/{userId}/role: member | editor | admin. */
    role: (request: Request, userId: string) =>
      adminUserEndpoint(options, 'admin-user-role', userId, changeRole)(request),

    /** POST /api/admin/users/{userId}/plan: intent grant (plan, status, days) | revoke. */
    plan: (request: Request, userId: string) =>
      adminUserEndpoint(options, 'admin-user-plan', userId, async (ctx) => {
        const intent = planIntent.safeParse(ctx.input.intent);
        if (!intent.success) return refusedFields({ form: '操作を読み取れませんでした。' });
        return intent.data === 'grant' ? grantPlan(ctx) : revokePlan(ctx);
      })(request),

    /** POST /api/admin/users/{userId}/partner: a published partner's id, or '' for none. */
    partner: (request: Request, userId: string) =>
      adminUserEndpoint(options, 'admin-user-partner', userId, changePartner)(request),

    /** POST /api/admin/users/{userId}/sessions: deletes every session of the user. */
    sessions: (request: Request, userId: string) =>
      adminUserEndpoint(options, 'admin-user-sessions', userId, signOutEverywhere)(request),
  };
}

export const adminUserRoutes = adminUserHandlers();
