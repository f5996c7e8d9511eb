import type { Db } from '@/server/platform/db/client';
import {
  subscriptions,
  user,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';

export type Reader = {
  id: string;
  /** `${id}@example.jp` unless told. */
  email?: string;
  /** Opted in to the newsletter (default true). */
  newsletter?: boolean;
  verified?: boolean;
  /** A plan's status (none: a free member). */
  plan?: string;
  provider?: string;
  planEnds?: Date;
};

/** Readers with their profiles and plans, inserted in a few multi-row statements. */
export async function addReaders(db: Db, readers: Reader[]): Promise<void> {
  const CHUNK = 1000;
  for (let i = 0; i < readers.length; i += CHUNK) {
    const chunk = readers.slice(i, i + CHUNK);
    const email = (r: Reader) => r.email ?? `${r.id}@example.jp`;
    await db.insert(user).values(
      chunk.map((r) => ({
        id: r.id,
        name: r.id,
        email: email(r),
        emailVerified: r.verified ?? true,
      })),
    );
    await db
      .insert(userPublicProfiles)
      .values(chunk.map((r) => ({ userId: r.id, displayName: r.id })));
    await db
      .insert(userPrivateProfiles)
      .values(
        chunk.map((r) => ({ userId: r.id, email: email(r), newsletter: r.newsletter ?? true })),
      );
    const plans = chunk.filter((r) => r.plan);
    if (plans.length)
      await db.insert(subscriptions).values(
        plans.map((r) => ({
          id: `sub-${r.id}`,
          userId: r.id,
          provider: r.provider ?? 'stripe',
          status: r.plan!,
          planName: 'スタンダード',
          currentPeriodEnd: r.planEnds ?? null,
        })),
      );
  }
}
