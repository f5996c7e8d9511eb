import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { z } from '@/lib/zod';
import { recordAudit, recordOwnAction } from '@/server/platform/audit/audit-log';
import { user as userTable, verification } from '@/server/platform/db/schema';
import { parseJsonText } from '@/server/platform/http/read-body';
import { maskAddress } from '@/server/platform/mail/mailer';
import { removeSignInLinks } from '@/server/platform/mail/outbox';
import { mails } from '@/server/platform/mail/templates';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { consumeOrRefuse } from '@/server/platform/forms/submit';
import { type FlowContext, type FlowDeps, LIMITS, formFlow, signOut } from './account-flows';
import {
  ACCOUNT_MAIL_LIMITS,
  type AppUser,
  type Auth,
  emailField,
  issueSignInToken,
  sendCappedMail,
  SIGN_IN_LINK_SECONDS,
} from '@/server/features/identity';

/**
 * Sign-in without a password (docs/decisions/020-sign-in-without-password.md): a link mailed to
 * a registered address signs its reader in once, within SIGN_IN_LINK_SECONDS. better-auth's
 * magic-link plugin keeps the token (hashed, consumed atomically, never creating an account);
 * this module puts our rules around it: zod, the sign-in rate limits, one answer whether or not
 * the address is registered, the mails, the audit and where the reader lands.
 *
 * Reuse: `sendSignInLink` mails a link from any flow (the address's mail cap applies; the limits
 * on the asker are the caller's); `followSignInLink` is what the link's endpoint does, for a
 * caller that holds a token.
 */

export const signInLinkInput = z.object({
  email: emailField,
  // Whatever it holds, a bad `next` only sends the reader home (safeNextPath, when followed).
  next: z.string().optional().catch(undefined),
});

/** The token as better-auth makes it (32 letters); anything else is not worth a lookup. */
const tokenShape = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/);

/**
 * better-auth's magic-link plugin keeps a token as a verification row: identifier
 * `magic-link:<token>` (stored hashed, `storeIdentifier`), value `{"type":"magic-link","email":…}`.
 * Read here to know whose a link is before spending it, and to retire an address's other links
 * once one is used (sign-in-link.integration.test.ts holds both to the plugin).
 */
const magicLinkValue = (email: string) => JSON.stringify({ type: 'magic-link', email });
const magicLinkValueShape = z.object({ type: z.literal('magic-link'), email: z.string() });

/** The address a live sign-in link is for, without spending it; null for any other token. */
export async function signInLinkAddress(auth: Auth, token: unknown): Promise<string | null> {
  const parsed = tokenShape.safeParse(token);
  if (!parsed.success) return null;
  const context = await auth.$context;
  const row = await context.internalAdapter.findVerificationValue(`magic-link:${parsed.data}`);
  if (!row || row.expiresAt < new Date()) return null;
  const json = parseJsonText(row.value, 2);
  const value = json.ok ? magicLinkValueShape.safeParse(json.value) : null;
  return value?.success ? value.data.email.toLowerCase() : null;
}

/** Where the form sends the reader: the same page for every address (no enumeration). */
export const LINK_SENT_PAGE = '/login?link=sent';

/** `/login?link=<state>` keeps `next`, so the reader can ask again and still return. */
export function loginPageWith(state: 'sent' | 'invalid' | 'limited', next: string): string {
  const path = `/login?link=${state}`;
  return next === '/' ? path : `${path}&next=${encodeURIComponent(next)}`;
}

/**
 * Mails a sign-in link to a registered address, or, to an address without an account, a note
 * saying so with the way to sign up: either counts against the address's cap of such mails
 * (account-mail.ts). The limits on the asker are the caller's.
 */
export async function sendSignInLink(
  deps: FlowDeps,
  input: { email: string; next?: string },
  ctx: Pick<FlowContext, 'headers'>,
): Promise<{ registered: boolean }> {
  const email = input.email.trim().toLowerCase();
  const next = safeNextPath(input.next, env().SITE_URL);
  const [owner] = await deps.db
    .select({ id: userTable.id, name: userTable.name })
    .from(userTable)
    .where(eq(userTable.email, email));
  // The same work for any address, so timing tells nothing: a token is made and kept either way
  // (an unknown address's is never mailed, and could make no account), then one mail goes.
  const { url } = await issueSignInToken(deps.auth, email, ctx.headers, next);
  const mail = owner
    ? mails.signInLink(email, owner.name, {
        url,
        userId: owner.id,
        lifetimeSeconds: SIGN_IN_LINK_SECONDS,
      })
    : mails.signInLinkNoAccount(email, `${env().SITE_URL}/sign-up`);
  await sendCappedMail(deps.db, ACCOUNT_MAIL_LIMITS.signInLink, mail);
  return { registered: !!owner };
}

/**
 * POST /api/account/sign-in-link: the same answer for any address, limited like sign-in; past
 * the address's cap of mails the answer stays the same and no mail goes.
 */
export const requestSignInLink = formFlow(
  signInLinkInput,
  async (deps, { email, ...fields }, ctx) => {
    const next = safeNextPath(fields.next, env().SITE_URL);
    const blocked = await consumeOrRefuse(deps.db, [
      { limit: LIMITS.signInIp, subject: addressKey(ctx.ip) },
      { limit: LIMITS.signInPair, subject: `${email} ${addressKey(ctx.ip) ?? ''}` },
    ]);
    if (blocked) return blocked;
    const { registered } = await sendSignInLink(deps, { email, next }, ctx);
    await recordAudit(deps.db, {
      actor: 'anonymous',
      action: 'sign-in-link-requested',
      target: `email:${maskAddress(email)}`,
      ip: ctx.ip,
      detail: { registered },
    });
    return {
      ok: true,
      redirectTo: loginPageWith('sent', next),
      message: SIGN_IN_LINK_SENT_MESSAGE,
    };
  },
);

export const SIGN_IN_LINK_SENT_MESSAGE = `ご入力のメールアドレスにログイン用のリンクをお送りしました。${SIGN_IN_LINK_SECONDS / 60} 分以内にメール内のリンクを開いてください。`;

export type FollowedLink =
  | { ok: true; userId: string; redirectTo: string; setCookies: string[] }
  | { ok: false; reason: 'invalid' | 'limited' | 'other-account'; redirectTo: string };

/** The page that asks a reader signed in as someone else before a link switches them. */
export const SWITCH_ACCOUNT_PAGE = '/login/switch';

function switchAccountPage(token: string, next: string): string {
  const query = new URLSearchParams({ token });
  if (next !== '/') query.set('next', next);
  return `${SWITCH_ACCOUNT_PAGE}?${query}`;
}

/** better-auth answers a bad link with a redirect (`?error=…`), thrown as an APIError. */
function isRedirect(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  return status === 'FOUND' || statusCode === 302;
}

/**
 * Follows a sign-in link: the token is spent whatever happens next, the reader is signed in
 * and sent to `next` (a path on this site, else home). A used, expired or unknown token sends
 * the reader to the login page, which says so and offers a new link. A `viewer` signed in with
 * another address is sent to the switch page instead, the link unspent.
 */
export async function followSignInLink(
  deps: FlowDeps,
  query: { token?: unknown; next?: unknown },
  ctx: FlowContext,
  viewer: { email: string } | null = null,
): Promise<FollowedLink> {
  const next = safeNextPath(query.next, env().SITE_URL);
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.signInIp, subject: addressKey(ctx.ip) },
  ]);
  if (blocked) return { ok: false, reason: 'limited', redirectTo: loginPageWith('limited', next) };
  const token = tokenShape.safeParse(query.token);
  const refused = async (reason: string): Promise<FollowedLink> => {
    await recordAudit(deps.db, {
      actor: 'anonymous',
      action: 'sign-in-failed',
      target: null,
      ip: ctx.ip,
      detail: { method: 'email-link', reason },
    });
    return { ok: false, reason: 'invalid', redirectTo: loginPageWith('invalid', next) };
  };
  if (!token.success) return refused('malformed-link');
  if (viewer) {
    // Login CSRF: a link for another address (a stranger's own, say) would switch this browser
    // to that account without a word. The reader is asked first; the link waits for the answer.
    const address = await signInLinkAddress(deps.auth, token.data);
    if (address && address !== viewer.email.toLowerCase())
      return {
        ok: false,
        reason: 'other-account',
        redirectTo: switchAccountPage(token.data, next),
      };
  }
  let signedIn: { headers: Headers; userId: string; email: string };
  try {
    // No callbackURL: better-auth answers the session instead of redirecting.
    const { headers, response } = await deps.auth.api.magicLinkVerify({
      query: { token: token.data },
      headers: ctx.headers,
      returnHeaders: true,
    });
    const { user } = response as { user: { id: string; email: string } };
    signedIn = { headers, userId: user.id, email: user.email };
  } catch (error) {
    if (isRedirect(error)) return refused('link-invalid-or-expired');
    throw error;
  }
  // Every other link of the address is spent with it: an older one would sign in too, for the
  // rest of its 15 minutes. So is the kept copy of each (the outbox, /admin/mail).
  await deps.db
    .delete(verification)
    .where(eq(verification.value, magicLinkValue(signedIn.email.toLowerCase())));
  await removeSignInLinks(deps.db, signedIn.userId);
  await recordOwnAction(deps.db, signedIn.userId, 'sign-in', {
    ip: ctx.ip,
    detail: { method: 'email-link' },
  });
  return {
    ok: true,
    userId: signedIn.userId,
    redirectTo: next,
    setCookies: signedIn.headers.getSetCookie(),
  };
}

const switchAccountInput = z.object({
  // Checked by followSignInLink, which answers a bad one as the link itself would.
  token: z.unknown(),
  next: z.string().optional().catch(undefined),
});

/**
 * POST /api/account/switch-account: the switch page's button. The link signs its reader in; the
 * account this browser was signed in with is signed out here (its session ended, audited), and
 * the link's session cookie comes after the cleared one, so it is the one the browser keeps.
 */
export const switchToLinkAccount = formFlow(
  switchAccountInput,
  async (deps, { token, next }, ctx, viewer: AppUser | null) => {
    const followed = await followSignInLink(deps, { token, next }, ctx);
    // A bad link lands where the link itself would send it: the login page, which says so.
    if (!followed.ok) return { ok: true, redirectTo: followed.redirectTo };
    const left =
      viewer && viewer.id !== followed.userId ? await signOut(deps, ctx, viewer.id) : null;
    const cleared = left?.ok ? (left.setCookies ?? []) : [];
    return {
      ok: true,
      redirectTo: followed.redirectTo,
      setCookies: [...cleared, ...followed.setCookies],
    };
  },
);
