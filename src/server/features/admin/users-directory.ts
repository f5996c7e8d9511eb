import 'server-only';
import { likeContaining, pageWithin } from '@/server/platform/db/paging';
import { and, count, desc, eq, gt, ilike, or } from 'drizzle-orm';
import {
  type AuthState,
  type SubscriptionRecord,
  currentPlanName,
  deriveAuthState,
} from '@/lib/auth-state';
import type { Db } from '@/server/platform/db/client';
import { session, user, userPublicProfiles } from '@/server/platform/db/schema';
import { ROLES, type Role } from '@/lib/identity/roles';
import type { PlanState } from '@/lib/identity/user-labels';
import { listSubscriptions, listSubscriptionsOf } from '@/server/features/profiles';

/**
 * The accounts as the admin screens (/admin/users) see them: found by address or name, newest
 * first, each with the plan the site would grant them today. The plan comes from the same
 * records and the same derivation as the reader's own auth state (src/lib/auth-state.ts), so
 * the screen never disagrees with what the member sees.
 */

export const USERS_PAGE_SIZE = 30;

export type DirectoryUser = {
  id: string;
  email: string;
  name: string;
  displayName: string | null;
  role: Role;
  emailVerified: boolean;
  /** '' when not a partner's member; null without a public profile. */
  partnerId: string | null;
  createdAt: Date;
  plan: PlanState;
};

export type DirectoryPage = {
  items: DirectoryUser[];
  total: number;
  page: number;
  pageCount: number;
};

const asRole = (value: string): Role =>
  (ROLES as readonly string[]).includes(value) ? (value as Role) : 'member';

const columns = {
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  emailVerified: user.emailVerified,
  createdAt: user.createdAt,
  displayName: userPublicProfiles.displayName,
  partnerId: userPublicProfiles.partnerId,
};

type Row = {
  id: string;
  email: string;
  name: string;
  role: string;
  emailVerified: boolean;
  createdAt: Date;
  displayName: string | null;
  partnerId: string | null;
};

/** The derived auth state's plan: what the member is, not merely what records exist. */
export function planStateOf(state: AuthState): PlanState {
  const current = state.currentSubscriptionData;
  return {
    paid: state.isPaidUser,
    planName: currentPlanName(state),
    status: current?.status ?? null,
    endsAt: current?.current_period_end ?? null,
    cancelAtPeriodEnd: state.isCanceledAtPeriodEnd,
  };
}

function authStateOf(row: Row, subscriptions: readonly SubscriptionRecord[]): AuthState {
  return deriveAuthState({
    uid: row.id,
    // Without its profile records the site treats the user as nobody (SPEC §3), so do we.
    publicProfile:
      row.displayName === null
        ? null
        : { uid: row.id, displayName: row.displayName, partnerId: row.partnerId ?? '' },
    privateProfile: { uid: row.id, email: row.email },
    subscriptions,
  });
}

const withPlan = (row: Row, subscriptions: readonly SubscriptionRecord[]): DirectoryUser => ({
  ...row,
  role: asRole(row.role),
  plan: planStateOf(authStateOf(row, subscriptions)),
});

/** One page of accounts whose address, account name or display name contains `q`. */
export async function searchUsers(
  db: Db,
  query: { q: string; page: number },
): Promise<DirectoryPage> {
  const q = query.q.trim();
  const where = q
    ? or(
        ilike(user.email, likeContaining(q)),
        ilike(user.name, likeContaining(q)),
        ilike(userPublicProfiles.displayName, likeContaining(q)),
      )
    : undefined;
  const [counted] = await db
    .select({ total: count() })
    .from(user)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, user.id))
    .where(where);
  const total = counted?.total ?? 0;
  const { page, pageCount, offset } = pageWithin(total, query.page, USERS_PAGE_SIZE);
  const rows = await db
    .select(columns)
    .from(user)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, user.id))
    .where(where)
    .orderBy(desc(user.createdAt), desc(user.id))
    .limit(USERS_PAGE_SIZE)
    .offset(offset);
  // The page's plans in one read, not one per account.
  const plans = await listSubscriptionsOf(
    db,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => withPlan(row, plans.get(row.id) ?? []));
  return { items, total, page, pageCount };
}

export type UserDetail = DirectoryUser & {
  subscriptions: SubscriptionRecord[];
  /** Sessions that have not expired: the devices signed in now. */
  activeSessions: number;
};

/** One account with every subscription record and its live sessions, or null. */
export async function getUserDetail(db: Db, userId: string): Promise<UserDetail | null> {
  const [row] = await db
    .select(columns)
    .from(user)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return null;
  const [subscriptions, [sessions]] = await Promise.all([
    listSubscriptions(db, row.id),
    db
      .select({ n: count() })
      .from(session)
      .where(and(eq(session.userId, row.id), gt(session.expiresAt, new Date()))),
  ]);
  return {
    ...row,
    role: asRole(row.role),
    plan: planStateOf(authStateOf(row, subscriptions)),
    subscriptions,
    activeSessions: sessions?.n ?? 0,
  };
}
