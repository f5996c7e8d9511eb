import type { Database } from '@/server/platform/db/client';
import { subscriptions } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity/session-user';
import { addUser, appUser } from './route-tests';

/** The two partners the partner screens' route tests make (content ids of `partners`). */
export const SORANE = 'partner-sorane';
export const LUMEO = 'partner-lumeo';

/**
 * The people of the partner screens' route tests: a free and a paid member of no partner, a
 * member of each partner and a staff editor.
 */
export const PARTNER_TEST_USERS = {
  free: appUser('free', 'member'),
  paid: appUser('paid', 'member'),
  lumeo: appUser('lumeo-member', 'member'),
  sorane: appUser('sorane-member', 'member'),
  staff: appUser('staff', 'editor'),
} as const satisfies Record<string, AppUser>;

/**
 * Adds PARTNER_TEST_USERS (the paid member with an active complimentary plan, each partner's
 * member in it), under the display names given, or their names.
 */
export async function addPartnerTestUsers(
  database: Database,
  displayName: (who: AppUser) => string = (who) => who.name,
): Promise<void> {
  const users = PARTNER_TEST_USERS;
  const add = (who: AppUser, partnerId = '') =>
    addUser(database, who, { partnerId, displayName: displayName(who) });
  await add(users.free);
  await add(users.paid);
  await database.db.insert(subscriptions).values({
    id: 'sub-paid',
    userId: users.paid.id,
    provider: 'complimentary',
    status: 'active',
    planName: 'スタンダード',
  });
  await add(users.lumeo, LUMEO);
  await add(users.sorane, SORANE);
  await add(users.staff);
}
