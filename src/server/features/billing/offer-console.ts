import 'server-only';
import type Stripe from 'stripe';
import type { OfferRowView } from '@/lib/billing/offer-row';
import { optionalDay, requiredText, z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import { listPlans } from './catalogue';
import { type RedemptionCount, SITE_CAP_KEY, redemptionCounts, siteCapOf } from './offers';
import { billingProvider } from './provider';
import { JAPAN_OFFSET_MS } from '@/lib/format';
import { PLAN_KEYS, type PlanKey } from '@/lib/billing/plans';

/**
 * The console's offers (/admin/offers): each is a coupon and one promotion code at the
 * provider, made through the SDK; the provider keeps them, so its dashboard and this screen
 * show the same offers. Their redemptions are the site's (offers.ts, offer_redemptions):
 * completed checkouts, counted against the cap the code's metadata holds (decision 028, its
 * 2026-11-29 amendment), never the provider's count, which takes failed attempts too.
 */

export const DUPLICATE_CODE_MESSAGE = 'このコードはすでに使われています';

const CODE_MESSAGE = 'コードは半角英数字とハイフンで40文字以内で入力してください。';
const int = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[0-9]{1,7}$/, { error: message })
    .transform(Number);
const optionalInt = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{0,7}$/, { error: message })
    .optional()
    .transform((v) => (v ? Number(v) : undefined));

/** The create form's fields (strings and checkboxes, as a browser posts them). */
export const offerInput = z
  .object({
    name: requiredText('オファー名', 40),
    kind: z.enum(['percent', 'amount'], { error: '割引の種類を選んでください。' }),
    value: int('割引の値を半角数字で入力してください。'),
    duration: z.enum(['once', 'repeating', 'forever'], { error: '割引の期間を選んでください。' }),
    months: optionalInt('月数は半角数字で入力してください。'),
    code: z
      .string({ error: CODE_MESSAGE })
      .trim()
      // The reader path's shape (offerCodeSchema in ./offers), with a message for staff.
      .regex(/^[A-Za-z0-9-]{1,40}$/, { error: CODE_MESSAGE })
      .transform((c) => c.toUpperCase()),
    expires: optionalDay('有効期限').optional(),
    cap: optionalInt('利用回数の上限は半角数字で入力してください。'),
    firstTime: z
      .unknown()
      .optional()
      .transform((v) => v === 'on' || v === '1' || v === true),
    plans: z.array(z.enum(PLAN_KEYS)).min(1, { error: '対象のプランを一つ以上選んでください。' }),
  })
  .superRefine((o, ctx) => {
    const max = o.kind === 'percent' ? 100 : 1_000_000;
    if (o.value < 1 || o.value > max)
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message:
          o.kind === 'percent'
            ? '割引率は 1〜100 の数で入力してください。'
            : '割引額は 1〜1,000,000 円で入力してください。',
      });
    if (o.duration === 'repeating' && (!o.months || o.months > 36))
      ctx.addIssue({
        code: 'custom',
        path: ['months'],
        message: '「数か月」の割引は月数を 1〜36 で入力してください。',
      });
    if (o.cap !== undefined && o.cap < 1)
      ctx.addIssue({
        code: 'custom',
        path: ['cap'],
        message: '利用回数の上限は 1 以上で入力してください（空欄で上限なし）。',
      });
  });

export type OfferInput = z.output<typeof offerInput>;

/**
 * The end of the expiry day in Japan, in the provider's seconds; null: no expiry. The day is a
 * real one (offerInput): one that is not is refused there, never read here as "no expiry".
 */
export function expiresAt(date: string | undefined): number | null {
  if (!date) return null;
  return Math.floor((Date.parse(`${date}T23:59:59Z`) - JAPAN_OFFSET_MS) / 1000);
}

export type OfferRow = OfferRowView & { plans: PlanKey[] };

export type CreateResult =
  { ok: true; offer: OfferRow } | { ok: false; fieldErrors: Record<string, string> };

function isCode(error: unknown, code: string): boolean {
  return (error as { code?: string }).code === code;
}

/** Makes the coupon and its promotion code; a code already active is refused before either. */
export async function createOffer(
  db: Db,
  input: OfferInput,
  now = new Date(),
): Promise<CreateResult> {
  const expiry = expiresAt(input.expires);
  if (expiry !== null && expiry * 1000 <= now.getTime())
    return { ok: false, fieldErrors: { expires: '有効期限は今日以降の日付にしてください。' } };
  const { stripe } = await billingProvider(db);
  const taken = await stripe.promotionCodes.list({ code: input.code, active: true, limit: 1 });
  if (taken.data.length > 0) return { ok: false, fieldErrors: { code: DUPLICATE_CODE_MESSAGE } };
  const plans = (await listPlans(db)).filter((plan) => input.plans.includes(plan.key));
  const coupon = await stripe.coupons.create({
    name: input.name,
    ...(input.kind === 'percent'
      ? { percent_off: input.value }
      : { amount_off: input.value, currency: 'jpy' }),
    duration: input.duration,
    ...(input.duration === 'repeating' ? { duration_in_months: input.months } : {}),
    applies_to: { products: plans.map((plan) => plan.productId) },
    metadata: { plans: input.plans.join(',') },
  });
  try {
    const code = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: input.code,
      ...(expiry !== null ? { expires_at: expiry } : {}),
      // The cap is the site's: the provider's own would count failed and abandoned checkouts.
      ...(input.cap !== undefined ? { metadata: { [SITE_CAP_KEY]: String(input.cap) } } : {}),
      restrictions: { first_time_transaction: input.firstTime },
    });
    const made = { ...code, promotion: { ...code.promotion, coupon } };
    return { ok: true, offer: toRow(made, { counted: 0, overCap: 0 }) };
  } catch (error) {
    // Another tab took the code meanwhile: the provider refuses it, and so do we.
    if (isCode(error, 'resource_already_exists'))
      return { ok: false, fieldErrors: { code: DUPLICATE_CODE_MESSAGE } };
    throw error;
  }
}

function toRow(code: Stripe.PromotionCode, redemptions: RedemptionCount | undefined): OfferRow {
  const coupon = code.promotion.coupon;
  const c = typeof coupon === 'object' && coupon ? coupon : null;
  const plans = (c?.metadata?.plans ?? '')
    .split(',')
    .filter((k): k is PlanKey => (PLAN_KEYS as readonly string[]).includes(k));
  return {
    id: code.id,
    code: code.code,
    name: c?.name ?? code.code,
    active: code.active,
    kind: c?.percent_off ? 'percent' : 'amount',
    value: c?.percent_off ?? c?.amount_off ?? 0,
    duration: (c?.duration ?? 'once') as OfferRow['duration'],
    months: c?.duration_in_months ?? null,
    ...redeemedOf(code, redemptions ?? { counted: 0, overCap: 0 }),
    expiresAt: code.expires_at ? new Date(code.expires_at * 1000) : null,
    firstTime: code.restrictions.first_time_transaction,
    plans,
  };
}

/**
 * Redemptions and cap as the console shows them: the site's count of completed checkouts and
 * its cap; for a code capped at the provider (made on its dashboard, or here before the site
 * kept the cap), the provider's count, which is the one its cap is checked against.
 */
function redeemedOf(
  code: Stripe.PromotionCode,
  redemptions: RedemptionCount,
): Pick<OfferRow, 'redeemed' | 'overCap' | 'cap'> {
  const siteCap = siteCapOf(code.metadata);
  if (siteCap === null && code.max_redemptions !== null)
    return { redeemed: code.times_redeemed, overCap: 0, cap: code.max_redemptions };
  return { redeemed: redemptions.counted, overCap: redemptions.overCap, cap: siteCap };
}

/** The offers, newest first (the provider's first hundred). */
export async function listOffers(db: Db): Promise<OfferRow[]> {
  const { stripe } = await billingProvider(db);
  const found = await stripe.promotionCodes.list({
    limit: 100,
    expand: ['data.promotion.coupon'],
  });
  const counts = await redemptionCounts(
    db,
    found.data.map((code) => code.id),
  );
  return found.data.map((code) => toRow(code, counts.get(code.id)));
}

/** Turns the code off (the coupon stays, for the discounts already given); null: no such code. */
export async function deactivateOffer(db: Db, id: string): Promise<OfferRow | null> {
  const { stripe } = await billingProvider(db);
  try {
    await stripe.promotionCodes.update(id, { active: false });
    const code = await stripe.promotionCodes.retrieve(id, { expand: ['promotion.coupon'] });
    return toRow(code, (await redemptionCounts(db, [id])).get(id));
  } catch (error) {
    if (isCode(error, 'resource_missing')) return null;
    throw error;
  }
}
