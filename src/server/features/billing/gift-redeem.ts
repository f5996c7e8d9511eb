import 'server-only';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { addMonths } from '@/lib/billing/gift-plans';
import { withKeyLock } from '@/lib/keyed-lock';
import {
  type GiftWithPurchase,
  giftByToken,
  lastGiftEndOf,
  markRedeemed,
  markRevoked,
  planGiftOf,
  redeemableUntil,
} from '@/server/features/gift-plans';
import type { AppUser } from '@/server/features/identity';
import { endGiftPeriod, grantGiftPeriod } from '@/server/features/profiles';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { planGifts, subscriptions } from '@/server/platform/db/schema';
import { billingProvider } from './provider';
import { syncSubscription } from './records';

/**
 * A gift's link redeemed, and a refunded gift taken back (docs/decisions/054-gift-subscriptions.md).
 * Only a signed-in account whose confirmed address is the recipient's redeems, once, a paid gift
 * not refunded, within its days. A reader without a paying plan gets a gift period (provider
 * `gift`, from now or after the gift periods they already have) that never renews; a reader
 * who pays by card has the months added after their paid period: the subscription's next charge
 * moves by setting `trial_end` (proration_behavior `none`), as on Stripe.
 */

export type RedeemAnswer =
  { granted: { kind: 'period' | 'extension'; end: Date; months: number } } | { refused: string };

const refused = (message: string): RedeemAnswer => ({ refused: message });

/** Why this reader cannot redeem this gift, or null. */
export function redeemRefusal(
  gift: GiftWithPurchase | null,
  user: Pick<AppUser, 'email' | 'emailVerified'> | null,
  now = new Date(),
): string | null {
  if (!gift || (gift.state !== 'paid' && gift.state !== 'refunded')) {
    return 'このギフトのリンクは正しくないか、使えなくなっています。メールのリンクをもう一度ご確認ください。';
  }
  if (gift.state === 'refunded' || gift.revokedAt) {
    return 'このギフトは返金されたため、受け取れません。';
  }
  if (gift.redeemedAt) return 'このギフトはすでに受け取り済みです。';
  const until = redeemableUntil(gift);
  if (!until || until <= now) return 'このギフトの受け取り期限が過ぎています。';
  if (!user) return null;
  if (user.email.trim().toLowerCase() !== gift.recipientEmail) {
    return 'このギフトの宛先は別のメールアドレスです。ギフトが届いたメールアドレスのアカウントでログインしてください。';
  }
  if (!user.emailVerified) {
    return 'メールアドレスの確認が済んでいません。確認メールのリンクを開いてから、もう一度お試しください。';
  }
  return null;
}

/**
 * The reader's live card plans (active or trialing), newest first: one that renews is extended
 * by the gift; the end of one set to end is where a gift period starts.
 */
async function liveCardPlansOf(db: Db, userId: string) {
  return db
    .select({
      id: subscriptions.id,
      endsAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      periodEnd: subscriptions.currentPeriodEnd,
    })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.provider, 'stripe'),
        inArray(subscriptions.status, ['active', 'trialing']),
      ),
    )
    .orderBy(desc(subscriptions.createdAt));
}

type CardPlan = Awaited<ReturnType<typeof liveCardPlansOf>>[number];

/** The latest end of a card plan set to end, if it is still ahead. */
function endingPlanEnd(plans: readonly CardPlan[], now: Date): Date | null {
  const ends = plans.flatMap((plan) =>
    plan.endsAtPeriodEnd && plan.periodEnd && plan.periodEnd > now ? [plan.periodEnd] : [],
  );
  return ends.length === 0 ? null : new Date(Math.max(...ends.map((end) => end.getTime())));
}

const latest = (...dates: (Date | null)[]) =>
  new Date(Math.max(...dates.map((date) => date?.getTime() ?? 0)));

export function redeemGift(
  db: Db,
  user: AppUser,
  token: string,
  ip: string | null,
): Promise<RedeemAnswer> {
  return withKeyLock(`gift-redeem:${user.id}`, async () => {
    const gift = await giftByToken(db, token);
    const refusal = redeemRefusal(gift, user);
    if (refusal || !gift) return refused(refusal ?? '');
    const now = new Date();
    const plans = await liveCardPlansOf(db, user.id);
    const payer = plans.find((plan) => !plan.endsAtPeriodEnd);
    const granted = payer
      ? await extend(db, user, gift, payer.id, now)
      : await grantPeriod(db, user, gift, now, endingPlanEnd(plans, now));
    if (!granted) return refused('このギフトはすでに受け取り済みです。');
    await recordAudit(db, {
      actor: user.id,
      action: 'billing.gift.redeem',
      target: user.id,
      ip,
      detail: {
        purchase: gift.purchaseId,
        kind: granted.kind,
        months: gift.months,
        end: granted.end.toISOString(),
      },
    });
    return { granted: { ...granted, months: gift.months } };
  });
}

/** A gift period, and the gift marked redeemed, in one transaction. */
async function grantPeriod(
  db: Db,
  user: AppUser,
  gift: GiftWithPurchase,
  now: Date,
  planEnd: Date | null,
) {
  const start = latest(now, await lastGiftEndOf(db, user.id, now), planEnd);
  const end = addMonths(start, gift.months);
  const granted = await db
    .transaction(async (tx) => {
      const subscriptionId = await grantGiftPeriod(tx, {
        userId: user.id,
        planName: `メンバーシップ ${gift.months}か月分のギフト`,
        priceId: null,
        end,
      });
      const marked = await markRedeemed(tx, gift.purchaseId, {
        userId: user.id,
        kind: 'period',
        subscriptionId,
        start,
        end,
        at: now,
      });
      // Redeemed meanwhile (another instance): the period just written is not kept.
      if (!marked) throw new AlreadyRedeemed();
      return { kind: 'period' as const, end };
    })
    .catch((error: unknown) => {
      if (error instanceof AlreadyRedeemed) return null;
      throw error;
    });
  return granted;
}

class AlreadyRedeemed extends Error {}

/** The months added after the paying reader's period: their next charge moves by them. */
async function extend(
  db: Db,
  user: AppUser,
  gift: GiftWithPurchase,
  subscriptionId: string,
  now: Date,
) {
  const { stripe } = await billingProvider(db);
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const nextCharge =
    subscription.status === 'trialing' && subscription.trial_end
      ? subscription.trial_end
      : subscription.items.data[0]!.current_period_end;
  const start = new Date(nextCharge * 1000);
  const end = addMonths(start, gift.months);
  // Claimed first: a second click finds it redeemed before the provider is asked twice.
  const marked = await markRedeemed(db, gift.purchaseId, {
    userId: user.id,
    kind: 'extension',
    subscriptionId,
    start,
    end,
    at: now,
  });
  if (!marked) return null;
  try {
    await stripe.subscriptions.update(subscriptionId, {
      trial_end: Math.floor(end.getTime() / 1000),
      proration_behavior: 'none',
    });
  } catch (error) {
    await db
      .update(planGifts)
      .set({ redeemedAt: null, redeemedBy: null, grantKind: null, grantSubscriptionId: null })
      .where(eq(planGifts.purchaseId, gift.purchaseId));
    throw error;
  }
  await syncSubscription(db, subscriptionId);
  return { kind: 'extension' as const, end };
}

/**
 * A refunded gift (purchase-events.ts): not yet redeemed, its link is dead (the ledger says
 * refunded); redeemed, what it granted ends now — a gift period ends, an extension's months
 * come off the subscription's next charge again.
 */
export async function revokeGift(db: Db, purchaseId: string): Promise<void> {
  const gift = await planGiftOf(db, purchaseId);
  if (!gift?.redeemedAt || !gift.grantSubscriptionId || !gift.grantStart || !gift.grantEnd) return;
  if (!(await markRevoked(db, purchaseId, new Date()))) return;
  if (gift.grantKind === 'period') {
    await endGiftPeriod(db, gift.grantSubscriptionId);
  } else {
    const { stripe } = await billingProvider(db);
    const subscription = await stripe.subscriptions.retrieve(gift.grantSubscriptionId);
    if (subscription.status === 'trialing' && subscription.trial_end) {
      const back =
        subscription.trial_end - (gift.grantEnd.getTime() - gift.grantStart.getTime()) / 1000;
      await stripe.subscriptions.update(subscription.id, {
        trial_end: back > Date.now() / 1000 + 60 ? Math.floor(back) : 'now',
        proration_behavior: 'none',
      });
      await syncSubscription(db, subscription.id);
    }
  }
  await recordAudit(db, {
    actor: 'billing',
    action: 'billing.gift.revoked',
    target: gift.redeemedBy,
    detail: { purchase: purchaseId, kind: gift.grantKind },
  });
}
