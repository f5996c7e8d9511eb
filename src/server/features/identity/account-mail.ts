import 'server-only';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import type { Mail } from '@/server/platform/mail/mail';
import { maskAddress, sendMail } from '@/server/platform/mail/mailer';
import { type Limit, hit } from '@/server/platform/rate-limit/limiter';

/**
 * The account mails that go to an address someone typed (sign-up, its resend, a sign-in before
 * confirming, an e-mail change's new address, a sign-in link, a password reset) are capped per
 * address and kind, whoever asks and from wherever: limits per client address alone let a mail
 * bomb through from many addresses. Past a cap the mail is dropped and the asker gets the very
 * answer they would have got, so the cap tells nothing about the address or its account
 * (docs/decisions/003-identity.md).
 */

const HOUR = 60 * 60_000;

export const ACCOUNT_MAIL_LIMITS = {
  // A sign-up with a registered address: its owner is told, not flooded.
  alreadyRegistered: { name: 'mail:already-registered', max: 3, windowMs: HOUR },
  // Confirmation links: a sign-up's, its resend, a sign-in before confirming, an e-mail change's.
  verification: { name: 'mail:verification', max: 5, windowMs: HOUR },
  resetPassword: { name: 'mail:reset-password', max: 3, windowMs: HOUR },
  // A sign-in link, or the note that no account uses the address: one budget for both.
  signInLink: { name: 'mail:sign-in-link', max: 5, windowMs: HOUR },
} satisfies Record<string, Limit>;

/** Sends the mail unless its address is over the cap; true when it was sent. */
export async function sendCappedMail(db: Db, limit: Limit, mail: Mail): Promise<boolean> {
  const count = await hit(db, limit, mail.to);
  if (count <= limit.max) {
    await sendMail(db, mail);
    return true;
  }
  // Once per window, not once per dropped mail: the flood is on record without growing it.
  if (count === limit.max + 1) {
    await recordAudit(db, {
      actor: 'system',
      action: 'mail-capped',
      target: `email:${maskAddress(mail.to)}`,
      detail: { kind: mail.kind, max: limit.max, windowMs: limit.windowMs },
    });
  }
  return false;
}
