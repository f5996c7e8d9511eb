import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, gt, gte, lt } from 'drizzle-orm';
import {
  GIFT_ALLOWANCE_SPENT,
  GIFT_LIFETIME_MS,
  GIFT_TOKEN,
  japanMonthStart,
} from '@/lib/gifts/gift-link';
import type { Db } from '@/server/platform/db/client';
import { gifts, user, userPublicProfiles } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity';
import { type GiftGrant, mayGift, viewerOf } from '@/lib/access/post-access';
import { listSubscriptions } from '@/server/features/profiles';

/**
 * Gift links (docs/decisions/037-gift-articles.md). A paid reader makes a link that opens one
 * members' post in full for anyone who has it, for 7 days, within a monthly allowance counted
 * in Japan time. The link carries a random 128-bit token; only its SHA-256 is stored (a slow
 * hash adds nothing for a secret of that entropy), so a leaked table opens nothing and the link
 * can be shown only once, when it is made. A gift stays valid when the giver's plan ends and
 * goes with the giver's account. A gift is bound to the post itself: its id, which a rename
 * moves (src/server/services/cms/rename.ts), and its creation time, which nothing changes, so an item
 * given the id after the post was deleted is not the post. Whether a found gift opens the item
 * is the access policy's decision (`postAccess`); this module only finds it.
 */

/** The post a gift is for, as the content service answers it. */
export type GiftedPost = { id: string; createdAt: string };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 16 random bytes as base64url: the 22 characters of GIFT_TOKEN. */
export const newGiftToken = () => randomBytes(16).toString('base64url');

/** The month's allowance of a giver at `now`: how many gifts they made in it and have left. */
export async function giftAllowance(
  db: Db,
  giverId: string,
  options: { now: Date; limit: number },
): Promise<{ used: number; left: number }> {
  const used = await countThisMonth(db, giverId, options.now);
  return { used, left: Math.max(0, options.limit - used) };
}

async function countThisMonth(db: Db, giverId: string, now: Date): Promise<number> {
  const start = japanMonthStart(now);
  const next = japanMonthStart(new Date(start.getTime() + 32 * 86_400_000));
  const [row] = await db
    .select({ n: count() })
    .from(gifts)
    .where(and(eq(gifts.giverId, giverId), gte(gifts.createdAt, start), lt(gifts.createdAt, next)));
  return row?.n ?? 0;
}

export type CreatedGift =
  | { ok: true; id: string; token: string; expiresAt: Date; left: number }
  | { ok: false; reason: 'not-paid' | 'not-giftable' | 'allowance-spent'; message: string };

export const NOT_PAID_MESSAGE = 'ギフトは有料会員の方だけが贈れます。';
export const NOT_GIFTABLE_MESSAGE = 'この記事はギフトにできません。';

/**
 * Makes a gift of `post` from `giver`, if the policy lets them (a paid reader, a members' post
 * they may read) and their month's allowance is not spent. The count and the insert run in one
 * transaction holding the giver's row, so two posts at once cannot both take the last gift.
 */
export async function createGift(
  db: Db,
  input: {
    giver: Pick<AppUser, 'id' | 'role'>;
    post: GiftedPost & { isPublicPreview: boolean };
    now: Date;
    limit: number;
  },
): Promise<CreatedGift> {
  const { giver, post, now, limit } = input;
  const viewer = viewerOf(giver, await listSubscriptions(db, giver.id), now);
  if (viewer.kind !== 'member' || !viewer.paid)
    return { ok: false, reason: 'not-paid', message: NOT_PAID_MESSAGE };
  if (!mayGift(viewer, post))
    return { ok: false, reason: 'not-giftable', message: NOT_GIFTABLE_MESSAGE };
  return db.transaction(async (tx) => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, giver.id)).for('update');
    const used = await countThisMonth(tx, giver.id, now);
    if (used >= limit)
      return { ok: false, reason: 'allowance-spent', message: GIFT_ALLOWANCE_SPENT } as const;
    const token = newGiftToken();
    const expiresAt = new Date(now.getTime() + GIFT_LIFETIME_MS);
    const [row] = await tx
      .insert(gifts)
      .values({
        tokenHash: hashToken(token),
        giverId: giver.id,
        endpoint: 'posts',
        contentId: post.id,
        contentCreatedAt: new Date(post.createdAt),
        createdAt: now,
        expiresAt,
      })
      .returning({ id: gifts.id });
    return { ok: true, id: row!.id, token, expiresAt, left: Math.max(0, limit - used - 1) };
  });
}

/**
 * The live gift a token names for this post, or null: a token of another shape, one not made
 * here, one made for another item (or for an item deleted since whose id this post has), or
 * one past its 7 days are all the same null.
 */
export async function findGift(
  db: Db,
  token: string | null,
  post: GiftedPost,
  now: Date,
): Promise<GiftGrant | null> {
  if (!token || !GIFT_TOKEN.test(token)) return null;
  const createdAt = new Date(post.createdAt);
  if (Number.isNaN(createdAt.getTime())) return null;
  const [row] = await db
    .select({
      contentId: gifts.contentId,
      expiresAt: gifts.expiresAt,
      giverName: userPublicProfiles.displayName,
    })
    .from(gifts)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, gifts.giverId))
    .where(
      and(
        eq(gifts.tokenHash, hashToken(token)),
        eq(gifts.endpoint, 'posts'),
        eq(gifts.contentId, post.id),
        eq(gifts.contentCreatedAt, createdAt),
        gt(gifts.expiresAt, now),
      ),
    )
    .limit(1);
  return row ? { ...row, giverName: row.giverName ?? '' } : null;
}
