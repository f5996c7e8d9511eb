import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, exists, not, or, sql } from 'drizzle-orm';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import {
  account,
  guestCheckouts,
  user,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';

/**
 * A sign-up is several writes that better-auth does not put in one transaction: the user, the
 * password, the confirmation mail, and (in its after-hook, last) the two profile records with
 * the reader's consent, taken from here. A process killed between them leaves an account that
 * is not whole: unverified, and without its password or its profile records. It was never
 * answered 2xx; it is removed when the address signs up again, so the reader's retry works
 * instead of "already registered". An account a paid checkout made (no password, unconfirmed
 * until its mailed link is followed: src/server/features/billing/guest-checkout.ts) is whole.
 */

export type SignUpConsent = {
  termsAcceptedAt: Date;
  newsletter: boolean;
  /** Where the reader agreed, for the newsletter's consent log (src/server/features/profiles/newsletter-consent.ts). */
  page?: string;
  ip?: string | null;
  userAgent?: string | null;
};

const consents = singleton('sign-up-consent', () => new AsyncLocalStorage<SignUpConsent>());

/** Runs the sign-up with the reader's consent, which the profile hook records with the profiles. */
export function withSignUpConsent<T>(consent: SignUpConsent, signUp: () => Promise<T>): Promise<T> {
  return consents.run(consent, signUp);
}

/** The consent of the sign-up in progress, if this user is being created by one. */
export function signUpConsent(): SignUpConsent | undefined {
  return consents.getStore();
}

/** Removes the address's account when it is an unfinished sign-up; true when it did. */
export async function removeUnfinishedSignUp(db: Db, email: string): Promise<boolean> {
  const has = (table: typeof account | typeof userPublicProfiles | typeof userPrivateProfiles) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(table)
        .where(
          table === account
            ? and(eq(account.userId, user.id), eq(account.providerId, 'credential'))
            : eq(table.userId, user.id),
        ),
    );
  const paid = exists(
    db
      .select({ one: sql`1` })
      .from(guestCheckouts)
      .where(eq(guestCheckouts.claimedBy, user.id)),
  );
  const removed = await db
    .delete(user)
    .where(
      and(
        eq(sql`lower(${user.email})`, email.toLowerCase()),
        eq(user.emailVerified, false),
        not(paid),
        or(not(has(account)), not(has(userPublicProfiles)), not(has(userPrivateProfiles))),
      ),
    )
    .returning({ id: user.id });
  return removed.length > 0;
}
