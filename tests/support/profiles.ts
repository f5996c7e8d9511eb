import { eq } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { userPublicProfiles } from '@/server/platform/db/schema';

/** The partner a user's public profile names ('' for none), as the tests read it back. */
export const readPartnerId = async (db: Db, userId: string) =>
  (
    await db
      .select({ partnerId: userPublicProfiles.partnerId })
      .from(userPublicProfiles)
      .where(eq(userPublicProfiles.userId, userId))
  )[0]?.partnerId;
