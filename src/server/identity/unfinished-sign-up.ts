import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, exists, sql } from 'drizzle-orm';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/db/client';
import { account, user } from '@/server/db/schema';

/**
 * A sign-up is several writes: better-auth inserts the user, its hook the two profile records
 * (with the reader's consent, taken from here), then the password. A process killed between
 * them leaves an account nobody can use: unverified, without a password. It is never answered
 * 2xx, cannot sign in, and is removed when the address signs up again, so the reader's retry
 * works instead of "already registered".
 */

export type SignUpConsent = { termsAcceptedAt: Date; newsletter: boolean };

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
  const removed = await db
    .delete(user)
    .where(
      and(
        eq(sql`lower(${user.email})`, email.toLowerCase()),
        eq(user.emailVerified, false),
        sql`NOT ${exists(
          db
            .select({ one: sql`1` })
            .from(account)
            .where(and(eq(account.userId, user.id), eq(account.providerId, 'credential'))),
        )}`,
      ),
    )
    .returning({ id: user.id });
  return removed.length > 0;
}
