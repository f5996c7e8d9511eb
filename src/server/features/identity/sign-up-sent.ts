import 'server-only';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { z } from '@/lib/zod';
import {
  SIGN_UP_SENT_COOKIE,
  readCookieHeader,
  setCookieValue,
} from '@/server/platform/http/cookies';
import { signJsonToken, verifyJsonToken } from '@/server/platform/security/signing';
import { EMAIL_VERIFICATION_SECONDS } from './auth';
import { PLAN_KEYS, type PlanKey } from '@/lib/billing/plans';
import { offerCodeSchema } from '@/lib/billing/offer-code';

/**
 * The 「確認メールを送信しました」 page names the address the mail went to and sends it again
 * (docs/decisions/039-reader-path.md). The address, with the plan and the page of origin the
 * mail's link carries, is kept in a short-lived signed cookie set by the sign-up, never in a URL
 * (URLs end up in logs and in the Referer). The resend: resend-verification.ts.
 */

const PURPOSE = 'sign-up-sent';
export const SENT_PAGE = '/sign-up?sent=1';
export const RESENT_PAGE = '/sign-up?sent=1&resent=1';

export type SentMail = { email: string; plan?: PlanKey; offer?: string; next: string };

const sentShape = z.object({
  email: z.string().email().max(320),
  plan: z.enum(PLAN_KEYS).optional(),
  offer: offerCodeSchema.optional(),
  next: z.string().max(2000),
});

const secure = () => env().SITE_URL.startsWith('https:');

/** The Set-Cookie that names the mail for the sent page, as long as its link works. */
export function sentMailCookie(sent: SentMail, now = Date.now()): string {
  const token = signJsonToken(PURPOSE, sent, { seconds: EMAIL_VERIFICATION_SECONDS, now });
  return setCookieValue(SIGN_UP_SENT_COOKIE, token, {
    maxAgeSeconds: EMAIL_VERIFICATION_SECONDS,
    secure: secure(),
  });
}

/** Forgets the mail (once its link has been followed). */
export function clearSentMailCookie(): string {
  return setCookieValue(SIGN_UP_SENT_COOKIE, '', { maxAgeSeconds: 0, secure: secure() });
}

/** The mail a valid, unexpired cookie value names; null for anything else. */
export function readSentMail(token: string | undefined, now = Date.now()): SentMail | null {
  const sent = verifyJsonToken(PURPOSE, token, sentShape, { now });
  if (!sent) return null;
  const { email, plan, offer } = sent;
  const next = safeNextPath(sent.next, env().SITE_URL);
  return { email, ...(plan ? { plan } : {}), ...(offer ? { offer } : {}), next };
}

/** The mail named by a request's cookie header. */
export function sentMailOf(headers: Pick<Headers, 'get'>): SentMail | null {
  return readSentMail(
    readCookieHeader(headers.get('cookie') ?? undefined)?.get(SIGN_UP_SENT_COOKIE),
  );
}
