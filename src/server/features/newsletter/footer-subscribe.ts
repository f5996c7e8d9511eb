import 'server-only';
import { and, eq, gte } from 'drizzle-orm';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { z } from '@/lib/zod';
import { recordAudit, recordOwnAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { newsletterConsents, user as userTable } from '@/server/platform/db/schema';
import {
  type Auth,
  EMAIL_VERIFICATION_SECONDS,
  sendCappedMail,
  nameFromAddress,
  signInWithoutMail,
  withSignUpConsent,
} from '@/server/features/identity';
import { maskAddress } from '@/server/platform/mail/mailer';
import { mails } from '@/server/platform/mail/templates';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { type Limit, consume } from '@/server/platform/rate-limit/limiter';
import { signJsonToken, verifyJsonToken } from '@/server/platform/security/signing';
import { setNewsletterConsent } from '@/server/features/profiles';

/**
 * The footer's subscription with just an address, as Ghost's (docs/decisions/025-newsletter-consent.md):
 *
 * 1. The form posts the address; the answer is the same page whether or not it has an account
 *    (no enumeration), limited per client address; mails to one address are capped, past the
 *    cap with the same answer.
 * 2. A confirmation mail carries a signed link (its own purpose, bound to the address and to
 *    the page the form was on, living as long as a sign-up's confirmation link).
 * 3. The link opens a page with one button, 「登録を完了する」 (a GET never acts: mail scanners
 *    open links, and the consent must be the reader's own act). Its POST, for an address without
 *    an account, creates a free member with the address verified, turns the newsletter on
 *    (consent `confirmed`, method `footer`) and signs them in; for an address that has an
 *    account it only turns the newsletter on.
 * 4. The link works once: a confirmation already logged for the address since the link was
 *    issued refuses it.
 */

const TOKEN_PURPOSE = 'newsletter-footer-confirm';
const HOUR = 60 * 60_000;

export const FOOTER_SUBSCRIBE_LIMITS = {
  ip: { name: 'newsletter-subscribe:ip', max: 20, windowMs: HOUR },
  address: { name: 'newsletter-subscribe:address', max: 3, windowMs: HOUR },
} satisfies Record<string, Limit>;

export const CONFIRM_PATH = '/newsletter/confirm';
export const SENT_PAGE = '/newsletter/subscribe?sent=1';
export const WELCOME_PAGE = '/newsletter/welcome';

const claimShape = z.object({ e: z.string().email(), p: z.string(), t: z.number().int() });
type Claim = z.infer<typeof claimShape>;

/** The confirmation link for an address, naming the page the form was on. */
export function confirmationUrl(email: string, page: string, now: number = Date.now()): string {
  const claim: Claim = { e: email, p: page, t: Math.floor(now / 1000) };
  const token = signJsonToken(TOKEN_PURPOSE, claim, { seconds: EMAIL_VERIFICATION_SECONDS, now });
  return `${env().SITE_URL}${CONFIRM_PATH}?token=${token}`;
}

/** The claim of a valid, unexpired confirmation token, else null. */
export function readConfirmation(token: string | null | undefined, now: number = Date.now()) {
  return verifyJsonToken(TOKEN_PURPOSE, token ?? undefined, claimShape, { now });
}

/**
 * Mails the confirmation link. The same for every address: an existing account gets the same
 * mail (its link only turns the newsletter on).
 */
export async function requestFooterSubscription(
  db: Db,
  input: { email: string; page?: string | null; ip: string | null },
  now: number = Date.now(),
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await consume(db, [{ limit: FOOTER_SUBSCRIBE_LIMITS.ip, subject: addressKey(input.ip) }], now);
  const page = safeNextPath(input.page ?? '/', env().SITE_URL);
  // Past the address's cap the mail is dropped and the answer stays the same (account-mail.ts).
  await sendCappedMail(
    db,
    FOOTER_SUBSCRIBE_LIMITS.address,
    mails.newsletterConfirm(email, confirmationUrl(email, page, now), EMAIL_VERIFICATION_SECONDS),
  );
  await recordAudit(db, {
    actor: 'anonymous',
    action: 'newsletter-subscribe-requested',
    target: `email:${maskAddress(email)}`,
    ip: input.ip,
  });
}

export type Confirmation =
  | { ok: true; created: boolean; userId: string; setCookies: string[] }
  | { ok: false; reason: 'invalid' | 'used' };

/** Whether the footer's confirmation was already logged for the address since `since`. */
async function alreadyConfirmed(db: Db, email: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: newsletterConsents.id })
    .from(newsletterConsents)
    .where(
      and(
        eq(newsletterConsents.email, email),
        eq(newsletterConsents.method, 'footer'),
        eq(newsletterConsents.action, 'confirmed'),
        gte(newsletterConsents.at, since),
      ),
    )
    .limit(1);
  return !!row;
}

/** The button's POST: the member (made if need be), the newsletter on, signed in if made. */
export async function confirmFooterSubscription(
  deps: { db: Db; auth: Auth },
  input: { token: string; ip: string | null; userAgent: string | null; headers: Headers },
  now: Date = new Date(),
): Promise<Confirmation> {
  const claim = readConfirmation(input.token, now.getTime());
  if (!claim) return { ok: false, reason: 'invalid' };
  const email = claim.e.toLowerCase();
  if (await alreadyConfirmed(deps.db, email, new Date(claim.t * 1000)))
    return { ok: false, reason: 'used' };
  const [existing] = await deps.db
    .select({ id: userTable.id })
    .from(userTable)
    .where(eq(userTable.email, email));
  let userId = existing?.id;
  let setCookies: string[] = [];
  if (!userId) {
    const context = await deps.auth.$context;
    // The profiles are made by the user hook, with the consent the footer's form states.
    const created = await withSignUpConsent({ termsAcceptedAt: now, newsletter: false }, () =>
      context.internalAdapter.createUser(
        { email, name: nameFromAddress(email), emailVerified: true },
        { method: 'newsletter-footer' },
      ),
    );
    userId = created.id;
    await recordOwnAction(deps.db, userId, 'sign-up', {
      ip: input.ip,
      detail: { method: 'newsletter-footer' },
    });
    setCookies = await signInWithoutMail(deps.auth, email, input.headers);
  }
  await setNewsletterConsent(deps.db, {
    userId,
    subscribed: true,
    confirmed: true,
    method: 'footer',
    page: claim.p,
    ip: input.ip,
    userAgent: input.userAgent,
    now,
  });
  return { ok: true, created: !existing, userId, setCookies };
}
