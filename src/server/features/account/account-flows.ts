import 'server-only';
import { pathStartOf, recordSignUpSource } from '@/server/features/attribution';
import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { recordAudit, recordOwnAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { noteAudienceChange } from '@/server/features/audience';
import { AUDIENCE_COOKIE, setCookieValue } from '@/server/platform/http/cookies';
import { user as userTable } from '@/server/platform/db/schema';
import { maskAddress, sendMail } from '@/server/platform/mail/mailer';
import { mails } from '@/server/platform/mail/templates';
import { cancelLiveSubscriptions } from '@/server/features/profiles';
import { cancelProviderSubscriptions, checkoutIntentPath } from '@/server/features/billing';
import { itemsOfWriter, purgeItems } from '@/server/features/comments';
import { type Limit, consume, countOf, hit, reset } from '@/server/platform/rate-limit/limiter';
import { consumeOrRefuse, invalidInput, refusedFields } from '@/server/platform/forms/submit';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { catchRefusal } from '@/server/platform/http/error-answer';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { doneAnswer } from '@/server/platform/http/done-flash';
import {
  type Auth,
  changeEmailInput,
  deleteAccountInput,
  EMAIL_VERIFICATION_SECONDS,
  forgotPasswordInput,
  passwordProblem,
  removeUnfinishedSignUp,
  resetPasswordInput,
  SENT_PAGE,
  setPasswordInput,
  sentMailCookie,
  signInInput,
  signUpInput,
  withSignUpConsent,
} from '@/server/features/identity';
import type { z } from '@/lib/zod';
import { type PlanKey } from '@/lib/billing/plans';

/**
 * The account flows behind /api/account/{flow}: validate, rate limit, call better-auth
 * server-side, audit, mail. Each answers a FlowResult; account-http.ts turns it into JSON with
 * a status (fetch) or a redirect (a plain form post).
 */

export type FlowContext = { headers: Headers; ip: string | null };
export type FlowDeps = {
  db: Db;
  auth: Auth;
  /** How the sign-in slow-down waits; tests record instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
};

export type FlowResult = FormResult;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Per address, limits must leave room for many people behind one office or campus NAT; per
// account they are tight. All count in the database, shared by every instance.
export const LIMITS = {
  // SIGN_IN_RATE_LIMIT_IP (default 100): an operator behind a large NAT, or a test run that
  // signs in many users from one address, may need more.
  get signInIp() {
    return { name: 'sign-in:ip', max: env().SIGN_IN_RATE_LIMIT_IP, windowMs: 10 * MINUTE };
  },
  // Failed sign-ins to one account from one address (a success starts the count again): past
  // it that address is refused for that account, and the owner elsewhere is not (OWASP).
  signInPair: { name: 'sign-in:account-ip', max: 10, windowMs: 10 * MINUTE },
  // Failed sign-ins to one account from anywhere: past `max` each attempt waits, none is refused,
  // so strangers cannot lock the owner out (SIGN_IN_SLOWDOWN).
  signInAccount: { name: 'sign-in:account', max: 20, windowMs: 10 * MINUTE },
  signUpIp: { name: 'sign-up:ip', max: 20, windowMs: HOUR },
  resetIp: { name: 'reset:ip', max: 10, windowMs: HOUR },
  resetSubmitIp: { name: 'reset-submit:ip', max: 20, windowMs: HOUR },
  changeEmailIp: { name: 'change-email:ip', max: 10, windowMs: HOUR },
  changeEmailAccount: { name: 'change-email:account', max: 5, windowMs: HOUR },
  passwordCheckAccount: { name: 'password-check:account', max: 10, windowMs: 10 * MINUTE },
} satisfies Record<string, Limit>;

/** The wait before each sign-in to an account past LIMITS.signInAccount: doubling, bounded. */
export const SIGN_IN_SLOWDOWN = { firstMs: 250, maxMs: 4000 };

export function signInDelayMs(failures: number): number {
  const over = failures - LIMITS.signInAccount.max;
  if (over < 0) return 0;
  return Math.min(SIGN_IN_SLOWDOWN.maxMs, SIGN_IN_SLOWDOWN.firstMs * 2 ** Math.min(over, 16));
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Where the verification link lands (better-auth adds `?error=…` when the link is bad). */
const VERIFIED_PAGE = '/login?verified=1';

/**
 * Where the verification link lands: the login page, which then returns the reader to the page
 * they were reading when they signed up (a safe local path only, else home).
 */
export function verifiedPage(
  next: string | undefined,
  plan?: PlanKey,
  email?: string,
  offer?: string,
): string {
  const path = safeNextPath(next, env().SITE_URL);
  // Signed up on the final confirmation screen: the link goes on to the plan's checkout.
  if (plan && email) {
    const intent = { plan, next: path, ...(offer ? { offer } : {}) };
    return checkoutIntentPath(intent, email, EMAIL_VERIFICATION_SECONDS);
  }
  return path === '/' ? VERIFIED_PAGE : `${VERIFIED_PAGE}&next=${encodeURIComponent(path)}`;
}

/**
 * A flow behind a posted form: input its schema refuses is answered with a message by each
 * field before anything else runs; `run` gets the parsed fields.
 */
export function formFlow<T, Rest extends unknown[] = []>(
  schema: z.ZodType<T>,
  run: (deps: FlowDeps, fields: T, ctx: FlowContext, ...rest: Rest) => Promise<FlowResult>,
): (deps: FlowDeps, input: unknown, ctx: FlowContext, ...rest: Rest) => Promise<FlowResult> {
  return async (deps, input, ctx, ...rest) => {
    const parsed = schema.safeParse(input);
    return parsed.success ? run(deps, parsed.data, ctx, ...rest) : invalidInput(parsed.error);
  };
}

/** The account a signed-in flow acts on. */
type AccountRef = { id: string; email: string; name: string };

/** better-auth's error code. Duck-typed: the bundler may give APIError two class identities. */
function errorCode(error: unknown): string | undefined {
  if (error instanceof APIError) return (error.body as { code?: string } | undefined)?.code;
  if (typeof error !== 'object' || error === null || !('body' in error)) return undefined;
  const code = (error.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

const weakPassword = (problem: string): FlowResult => refusedFields({ password: problem });

const setCookiesOf = (headers: Headers | undefined) => headers?.getSetCookie() ?? [];

export async function signUp(
  deps: FlowDeps,
  input: unknown,
  ctx: FlowContext,
): Promise<FlowResult> {
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success) {
    // Every field's message at once: a weak password too, when its own shape was fine. The
    // estimate costs up to a tenth of a second, so such a try counts against the limit.
    const answer = invalidInput(parsed.error);
    const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<
      string,
      unknown
    >;
    if (answer.ok || answer.fieldErrors?.password || typeof raw.password !== 'string')
      return answer;
    const blocked = await consumeOrRefuse(deps.db, [
      { limit: LIMITS.signUpIp, subject: addressKey(ctx.ip) },
    ]);
    if (blocked) return blocked;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const problem = passwordProblem(raw.password, text(raw.email), text(raw.displayName));
    return problem
      ? { ...answer, fieldErrors: { ...answer.fieldErrors, password: problem } }
      : answer;
  }
  const { email, password, displayName, newsletter, next, plan } = parsed.data;
  const offer = plan ? parsed.data.offer : undefined;
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.signUpIp, subject: addressKey(ctx.ip) },
  ]);
  if (blocked) return blocked;
  const problem = passwordProblem(password, email, displayName);
  if (problem) return weakPassword(problem);
  // A sign-up a crash cut short is started again (unfinished-sign-up.ts).
  await removeUnfinishedSignUp(deps.db, email);
  // For an address already registered better-auth answers the same and mails its owner.
  const consent = {
    termsAcceptedAt: new Date(),
    newsletter,
    page: plan ? '/service-plans/confirm' : '/sign-up',
    ip: ctx.ip,
    userAgent: ctx.headers.get('user-agent'),
  };
  const result = await withSignUpConsent(consent, () =>
    deps.auth.api.signUpEmail({
      body: {
        email,
        password,
        name: displayName,
        callbackURL: verifiedPage(next, plan, email, offer),
      },
      headers: ctx.headers,
    }),
  );
  const [created] = await deps.db
    .select({ id: userTable.id })
    .from(userTable)
    .where(eq(userTable.id, result.user.id));
  if (created) {
    // Where the reader's path started (the first paywall met), unless they asked not to be tracked.
    const source = pathStartOf(ctx.headers);
    if (source) await recordSignUpSource(deps.db, created.id, source);
    await recordOwnAction(deps.db, created.id, 'sign-up', { ip: ctx.ip });
  }
  return {
    ok: true,
    redirectTo: SENT_PAGE,
    message: `確認メールを ${email} に送信しました。メール内のリンクを開いて登録を完了してください。`,
    // The sent page names the address and can send the mail again (sign-up-sent.ts).
    setCookies: [
      sentMailCookie({
        email,
        ...(plan ? { plan } : {}),
        ...(offer ? { offer } : {}),
        next: safeNextPath(next, env().SITE_URL),
      }),
    ],
  };
}

export const signIn = formFlow(signInInput, async (deps, { email, password, next }, ctx) => {
  // Without an address (only without the front server) the pair is the account alone.
  const pair = `${email} ${addressKey(ctx.ip) ?? ''}`;
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.signInIp, subject: addressKey(ctx.ip) },
    // Counted before the attempt so parallel guesses cannot overrun it; reset on success.
    { limit: LIMITS.signInPair, subject: pair },
  ]);
  if (blocked) return blocked;
  const delay = signInDelayMs(await countOf(deps.db, LIMITS.signInAccount, email));
  if (delay > 0) await (deps.sleep ?? wait)(delay);
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email, password, rememberMe: true, callbackURL: verifiedPage(next) },
      headers: ctx.headers,
      returnHeaders: true,
    });
    await reset(deps.db, LIMITS.signInPair, pair);
    await recordOwnAction(deps.db, response.user.id, 'sign-in', { ip: ctx.ip });
    return {
      ok: true,
      redirectTo: safeNextPath(next, env().SITE_URL),
      setCookies: setCookiesOf(headers),
    };
  } catch (error) {
    const code = errorCode(error);
    const wrongCredentials =
      code === 'INVALID_EMAIL_OR_PASSWORD' ||
      code === 'INVALID_PASSWORD' ||
      code === 'USER_NOT_FOUND';
    // Only a wrong password counts against the account; an unverified one was right.
    if (wrongCredentials) await hit(deps.db, LIMITS.signInAccount, email);
    else if (code === 'EMAIL_NOT_VERIFIED') await reset(deps.db, LIMITS.signInPair, pair);
    await recordAudit(deps.db, {
      actor: 'anonymous',
      action: 'sign-in-failed',
      target: `email:${maskAddress(email)}`,
      ip: ctx.ip,
      detail: { reason: code ?? 'error', ...(delay > 0 ? { delayedMs: delay } : {}) },
    });
    if (code === 'EMAIL_NOT_VERIFIED') {
      return {
        ok: false,
        status: 403,
        message:
          'メールアドレスの確認が済んでいません。確認メールを送り直しましたので、メール内のリンクを開いてからログインしてください。',
      };
    }
    if (wrongCredentials) {
      return {
        ok: false,
        status: 401,
        message: 'メールアドレスまたはパスワードが正しくありません。',
      };
    }
    throw error;
  }
});

export async function signOut(
  deps: FlowDeps,
  ctx: FlowContext,
  userId: string | null,
): Promise<FlowResult> {
  const { headers } = await deps.auth.api.signOut({ headers: ctx.headers, returnHeaders: true });
  if (userId) {
    // An audience cookie signed before now is not trusted again: a copy of the session and
    // audience cookie pair would otherwise read pages cached for the reader's plan for the
    // rest of the cookie's minute (the front server trusts the pair without the database).
    noteAudienceChange(userId);
    await recordOwnAction(deps.db, userId, 'sign-out', { ip: ctx.ip });
  }
  const clearAudience = setCookieValue(AUDIENCE_COOKIE, '', {
    maxAgeSeconds: 0,
    secure: env().SITE_URL.startsWith('https:'),
  });
  return { ok: true, redirectTo: '/', setCookies: [...setCookiesOf(headers), clearAudience] };
}

/**
 * The same answer whether or not the address is registered, and whether or not it has had its
 * hour's reset mails (capped where the mail is sent: auth.ts, account-mail.ts).
 */
export const requestPasswordReset = formFlow(forgotPasswordInput, async (deps, { email }, ctx) => {
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.resetIp, subject: addressKey(ctx.ip) },
  ]);
  if (blocked) return blocked;
  await deps.auth.api.requestPasswordReset({ body: { email }, headers: ctx.headers });
  return {
    ok: true,
    redirectTo: '/account/forgot-password?sent=1',
    message:
      'ご入力のメールアドレスが登録されている場合、パスワード再設定のご案内を送信しました。メールをご確認ください。',
  };
});

const TOKEN_PROBLEM =
  'このリンクは有効期限が切れているか、すでに使われています。お手数ですが、もう一度パスワード再設定をお申し込みください。';

export const resetPassword = formFlow(
  resetPasswordInput,
  async (deps, { token, password }, ctx) => {
    const blocked = await consumeOrRefuse(deps.db, [
      { limit: LIMITS.resetSubmitIp, subject: addressKey(ctx.ip) },
    ]);
    if (blocked) return blocked;
    // The password rules need the account's address: find it through the token.
    const context = await deps.auth.$context;
    const verification = await context.internalAdapter.findVerificationValue(
      `reset-password:${token}`,
    );
    if (!verification || verification.expiresAt < new Date())
      return { ok: false, status: 400, message: TOKEN_PROBLEM };
    const owner = await context.internalAdapter.findUserById(verification.value);
    const problem = passwordProblem(password, owner?.email ?? null, owner?.name);
    if (problem) return weakPassword(problem);
    try {
      await deps.auth.api.resetPassword({
        body: { newPassword: password, token },
        headers: ctx.headers,
      });
    } catch (error) {
      if (errorCode(error) === 'INVALID_TOKEN' || errorCode(error) === 'USER_NOT_FOUND')
        return { ok: false, status: 400, message: TOKEN_PROBLEM };
      throw error;
    }
    return {
      ok: true,
      redirectTo: '/login?reset=1',
      message: 'パスワードを再設定しました。新しいパスワードでログインしてください。',
    };
  },
);

/**
 * 「パスワードを設定」 on the account page: a first password for an account made without one (a
 * paid checkout, the footer's newsletter), through better-auth's server-only setPassword. Only
 * once the address is confirmed: until then the account is not yet proven to be the mailbox's,
 * and the library would drop the password when the mailed link confirms it.
 */
export const setPassword = formFlow(
  setPasswordInput,
  async (deps, { password }, ctx, account: AccountRef & { emailVerified: boolean }) => {
    if (!account.emailVerified)
      return {
        ok: false,
        status: 403,
        message:
          'メールアドレスの確認後に設定できます。お送りしたメールのリンクを開いてから、もう一度お試しください。',
      };
    const blocked = await consumeOrRefuse(deps.db, [
      { limit: LIMITS.resetSubmitIp, subject: addressKey(ctx.ip) },
    ]);
    if (blocked) return blocked;
    const problem = passwordProblem(password, account.email, account.name);
    if (problem) return weakPassword(problem);
    try {
      await deps.auth.api.setPassword({ body: { newPassword: password }, headers: ctx.headers });
    } catch (error) {
      if (errorCode(error) !== 'PASSWORD_ALREADY_SET') throw error;
      return {
        ok: false,
        status: 409,
        message: 'パスワードはすでに設定されています。変更は「パスワードの再設定」からどうぞ。',
      };
    }
    await recordOwnAction(deps.db, account.id, 'password-set', { ip: ctx.ip });
    await sendMail(deps.db, mails.passwordSet(account.email, account.name));
    return doneAnswer(
      'パスワードを設定しました。次回からメールアドレスとパスワードでもログインできます。',
      '/account',
    );
  },
);

async function checkPassword(
  deps: FlowDeps,
  ctx: FlowContext,
  userId: string,
  password: string,
): Promise<boolean> {
  await consume(deps.db, [{ limit: LIMITS.passwordCheckAccount, subject: userId }]);
  try {
    await deps.auth.api.verifyPassword({ body: { password }, headers: ctx.headers });
    return true;
  } catch (error) {
    if (errorCode(error) === 'INVALID_PASSWORD') return false;
    throw error;
  }
}

const WRONG_PASSWORD = refusedFields({ password: 'パスワードが正しくありません。' });

export const changeEmail = formFlow(
  changeEmailInput,
  async (deps, { newEmail, password }, ctx, account: AccountRef) => {
    if (newEmail === account.email)
      return refusedFields({ newEmail: '現在のメールアドレスと同じです。' });
    const outcome = await catchRefusal(async () => {
      await consume(deps.db, [
        { limit: LIMITS.changeEmailIp, subject: addressKey(ctx.ip) },
        { limit: LIMITS.changeEmailAccount, subject: account.id },
      ]);
      return checkPassword(deps, ctx, account.id, password);
    });
    if (outcome !== true) return outcome === false ? WRONG_PASSWORD : outcome;
    // A taken address gets no mail and the same answer (better-auth), so nothing is revealed.
    await deps.auth.api.changeEmail({
      body: { newEmail, callbackURL: '/account/edit?email=changed' },
      headers: ctx.headers,
    });
    await sendMail(deps.db, mails.changeEmailNotice(account.email, account.name));
    await recordOwnAction(deps.db, account.id, 'email-change-requested', {
      ip: ctx.ip,
      detail: { to: maskAddress(newEmail) },
    });
    return {
      ok: true,
      redirectTo: '/account/change-email?sent=1',
      message: `確認メールを ${newEmail} に送信しました。メール内のリンクを開くと変更が完了します。それまでは現在のメールアドレスのままです。`,
    };
  },
);

/**
 * Deletes the account: live plans are cancelled (with the payment provider first), the user, profiles and sessions are removed,
 * payment records stay without the person (subscriptions.user_id becomes null), and the
 * address is told.
 */
export const deleteAccount = formFlow(
  deleteAccountInput,
  async (deps, { password }, ctx, account: AccountRef) => {
    const outcome = await catchRefusal(() => checkPassword(deps, ctx, account.id, password));
    if (outcome !== true) return outcome === false ? WRONG_PASSWORD : outcome;
    try {
      await cancelProviderSubscriptions(deps.db, account.id);
    } catch (error) {
      console.error('[account] the plan could not be cancelled with the provider:', error);
      return {
        ok: false,
        status: 500,
        message:
          'ご利用中のプランを解約できなかったため、退会を中止しました。時間をおいてもう一度お試しください。',
      };
    }
    const canceled = await cancelLiveSubscriptions(deps.db, account.id);
    // Their comments go with the account: the items' pages are purged once they have.
    const commented = await itemsOfWriter(deps.db, account.id);
    const { headers } = await deps.auth.api.deleteUser({
      body: { password },
      headers: ctx.headers,
      returnHeaders: true,
    });
    await recordOwnAction(deps.db, account.id, 'account-deleted', {
      ip: ctx.ip,
      detail: { canceledSubscriptions: canceled },
    });
    purgeItems(commented);
    await sendMail(deps.db, mails.accountDeleted(account.email, account.name));
    return { ok: true, redirectTo: '/account/delete?done=1', setCookies: setCookiesOf(headers) };
  },
);
