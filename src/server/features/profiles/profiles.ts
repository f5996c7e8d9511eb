import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import {
  LOAD_FAILED,
  type LoadedIdentity,
  type PrivateProfile,
  type PublicProfile,
} from '@/lib/auth-state';
import { noteAudienceChange } from '@/server/features/audience';
import type { Db } from '@/server/platform/db/client';
import { user, userPrivateProfiles, userPublicProfiles } from '@/server/platform/db/schema';
import type { Role } from '@/lib/identity/roles';
import { type ConsentChange, appendConsent } from '@/server/features/profiles/newsletter-consent';
import { listSubscriptions } from './subscriptions';

/**
 * The public and private profile records of SPEC §3, keyed by the user id. The public record
 * is what others may see (display name, avatar, partner); the private one only its owner and
 * staff (e-mail, payment customer id, consents).
 */

export async function createProfiles(
  db: Db,
  input: {
    userId: string;
    email: string;
    displayName: string;
    /**
     * A reader's sign-up: recorded with the records, so none exists without it, the newsletter's
     * opt-in included (with its consent log row): a sign-up cut after the records keeps the
     * reader's choice (src/server/features/identity/unfinished-sign-up.ts).
     */
    consent?: {
      termsAcceptedAt: Date;
      newsletter?: Pick<ConsentChange, 'page' | 'ip' | 'userAgent'>;
    };
  },
): Promise<void> {
  const { newsletter, ...terms } = input.consent ?? {};
  await db.transaction(async (tx) => {
    await tx
      .insert(userPublicProfiles)
      .values({ userId: input.userId, displayName: input.displayName })
      .onConflictDoNothing();
    const created = await tx
      .insert(userPrivateProfiles)
      .values({ userId: input.userId, email: input.email, ...terms, newsletter: !!newsletter })
      .onConflictDoNothing()
      .returning({ userId: userPrivateProfiles.userId });
    if (newsletter && created.length > 0) {
      await appendConsent(tx, {
        ...newsletter,
        userId: input.userId,
        email: input.email,
        action: 'subscribed',
        method: 'sign-up',
        at: new Date(),
      });
    }
  });
}

export type ProfileDetails = {
  displayName: string;
  avatarUrl: string | null;
  occupation: string;
  company: string;
  interests: string[];
  partnerId: string;
  email: string;
  newsletter: boolean;
};

export async function getProfileDetails(db: Db, userId: string): Promise<ProfileDetails | null> {
  const [row] = await db
    .select({
      displayName: userPublicProfiles.displayName,
      avatarUrl: userPublicProfiles.avatarUrl,
      occupation: userPublicProfiles.occupation,
      company: userPublicProfiles.company,
      interests: userPublicProfiles.interests,
      partnerId: userPublicProfiles.partnerId,
      email: userPrivateProfiles.email,
      newsletter: userPrivateProfiles.newsletter,
    })
    .from(userPublicProfiles)
    .innerJoin(userPrivateProfiles, eq(userPrivateProfiles.userId, userPublicProfiles.userId))
    .where(eq(userPublicProfiles.userId, userId));
  return row ?? null;
}

export async function updateProfile(
  db: Db,
  userId: string,
  changes: Partial<Omit<ProfileDetails, 'email' | 'partnerId' | 'newsletter'>> & {
    termsAcceptedAt?: Date;
  },
): Promise<void> {
  const now = new Date();
  const { termsAcceptedAt, ...publicChanges } = changes;
  if (Object.keys(publicChanges).length > 0) {
    await db
      .update(userPublicProfiles)
      .set({ ...publicChanges, updatedAt: now })
      .where(eq(userPublicProfiles.userId, userId));
  }
  if (termsAcceptedAt !== undefined) {
    await db
      .update(userPrivateProfiles)
      .set({ termsAcceptedAt, updatedAt: now })
      .where(eq(userPrivateProfiles.userId, userId));
  }
}

export async function setPartnerId(db: Db, userId: string, partnerId: string): Promise<void> {
  await db
    .update(userPublicProfiles)
    .set({ partnerId, updatedAt: new Date() })
    .where(eq(userPublicProfiles.userId, userId));
}

/** An account as staff see it (admin CLI): the user with its partner id (null without a public record). */
export type UserSummary = {
  id: string;
  email: string;
  name: string;
  role: string;
  emailVerified: boolean;
  partnerId: string | null;
  createdAt: Date;
};

const userSummaryColumns = {
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  emailVerified: user.emailVerified,
  partnerId: userPublicProfiles.partnerId,
  createdAt: user.createdAt,
};

/** Addresses are stored lower-cased (better-auth), so the lookup is too. */
export async function findUserByEmail(db: Db, email: string): Promise<UserSummary | null> {
  const [row] = await db
    .select(userSummaryColumns)
    .from(user)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, user.id))
    .where(eq(user.email, email.trim().toLowerCase()));
  return row ?? null;
}

/** Newest first. */
export async function listUsers(db: Db, limit: number): Promise<UserSummary[]> {
  return db
    .select(userSummaryColumns)
    .from(user)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, user.id))
    .orderBy(desc(user.createdAt), desc(user.id))
    .limit(limit);
}

/** A reader who asked for the newsletter: where and to whom the publisher sends it. */
export type NewsletterSubscriber = { email: string; name: string; since: Date };

/**
 * Readers with a verified address who opted in (sign-up or the account page), oldest first. The
 * site does not send the newsletter itself: staff export this list to their mailing tool.
 */
export async function listNewsletterSubscribers(db: Db): Promise<NewsletterSubscriber[]> {
  return db
    .select({ email: user.email, name: user.name, since: user.createdAt })
    .from(userPrivateProfiles)
    .innerJoin(user, eq(user.id, userPrivateProfiles.userId))
    .where(and(eq(userPrivateProfiles.newsletter, true), eq(user.emailVerified, true)))
    .orderBy(user.createdAt, user.id);
}

/** The staff role lives on the user record; sessions read it from there on every request. */
export async function setUserRole(db: Db, userId: string, role: Role): Promise<void> {
  await db.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, userId));
  noteAudienceChange(userId);
}

/** Records whose read failed count as missing, as SPEC §8 says ("silently ignored"). */
async function orFailed<T>(read: Promise<T>): Promise<T | typeof LOAD_FAILED> {
  try {
    return await read;
  } catch (error) {
    console.error('[profiles] load failed:', error);
    return LOAD_FAILED;
  }
}

/** Everything the auth state is derived from (src/lib/auth-state.ts), for a signed-in user. */
export async function loadIdentity(db: Db, userId: string): Promise<LoadedIdentity> {
  const [publicProfile, privateProfile, subscriptions] = await Promise.all([
    orFailed(
      db
        .select({
          displayName: userPublicProfiles.displayName,
          avatarUrl: userPublicProfiles.avatarUrl,
          partnerId: userPublicProfiles.partnerId,
        })
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, userId))
        .then(([row]): PublicProfile | null => (row ? { uid: userId, ...row } : null)),
    ),
    orFailed(
      db
        .select({ email: userPrivateProfiles.email, stripeId: userPrivateProfiles.stripeId })
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, userId))
        .then(([row]): PrivateProfile | null => (row ? { uid: userId, ...row } : null)),
    ),
    orFailed(listSubscriptions(db, userId)),
  ]);
  return { uid: userId, publicProfile, privateProfile, subscriptions };
}
