import { EMAIL_MAX } from '@/lib/account-limits';
import { JAPAN_OFFSET_MS, formatDateJa, isoDateJa } from '@/lib/format';
import { z } from '@/lib/zod';
import type { PlanKey } from './plans';

/**
 * Gift subscriptions (docs/decisions/054-gift-subscriptions.md): what the order form, the final
 * confirmation screen, the checkout endpoint and the account page share — the months on sale,
 * the price rule, the order's fields and how a gift's state is said.
 */

export const GIFT_MONTHS = [1, 3, 12] as const;
export type GiftMonths = (typeof GIFT_MONTHS)[number];

/** The catalogue's plan a gift is priced by: 12 months at the yearly plan's price, else monthly. */
export const planForMonths = (months: GiftMonths): PlanKey =>
  months === 12 ? 'yearly' : 'monthly';

/**
 * The price of a gift in yen, tax included, from the catalogue only: the monthly plan's price ×
 * the months (1 and 3), the yearly plan's price (12). Null when the plan is not on sale.
 */
export function giftPrice(
  plans: readonly { key: PlanKey; amount: number; active: boolean }[],
  months: GiftMonths,
): number | null {
  const plan = plans.find((one) => one.key === planForMonths(months) && one.active);
  if (!plan) return null;
  return months === 12 ? plan.amount : plan.amount * months;
}

export const giftTitle = (months: number) => `メンバーシップ ${months}か月分（ギフト）`;

/** The card's message: up to this many characters. */
export const GIFT_MESSAGE_MAX = 300;
/** A delivery date up to this many days ahead. */
export const GIFT_DELIVERY_DAYS_AHEAD = 90;
/** How long a delivered link can be redeemed. */
export const GIFT_REDEEM_DAYS = 365;
/** The reminder's lead before a gift period ends. */
export const GIFT_REMINDER_DAYS = 7;

const DAY_MS = 86_400_000;

/** Today's date in Japan, YYYY-MM-DD. */
export const todayJa = (now = new Date()) => isoDateJa(now);

/** A Japan date YYYY-MM-DD `days` after `date`. */
export const addDaysJa = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * When the delivery mail goes: at once for today, else 09:00 in Japan on the chosen day (a mail
 * that arrives in the morning, not at midnight).
 */
export function deliverAtFor(date: string, now = new Date()): Date {
  if (date <= todayJa(now)) return now;
  return new Date(Date.parse(`${date}T09:00:00Z`) - JAPAN_OFFSET_MS);
}

/** `months` calendar months after `from` (the day clamped to the month's last, as Stripe does). */
export function addMonths(from: Date, months: number): Date {
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const last = new Date(
    Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0, 0, 0, 0),
  ).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return next;
}

const monthsField = z.coerce
  .number({ error: '期間を選んでください。' })
  .refine((value): value is GiftMonths => (GIFT_MONTHS as readonly number[]).includes(value), {
    error: '期間は 1か月・3か月・12か月から選んでください。',
  })
  .transform((value) => value);

/** The order's fields (form page, confirmation screen, checkout endpoint alike). */
export const giftOrderFields = {
  months: monthsField,
  recipient: z
    .string({ error: '贈る相手のメールアドレスを入力してください。' })
    .trim()
    .toLowerCase()
    .min(1, '贈る相手のメールアドレスを入力してください。')
    .max(EMAIL_MAX, 'メールアドレスが長すぎます。')
    .pipe(z.email({ error: 'メールアドレスの形式が正しくありません。' })),
  message: z
    .string()
    .optional()
    .transform((value) => value?.replaceAll('\r\n', '\n').trim() ?? '')
    .refine((value) => value.length <= GIFT_MESSAGE_MAX, {
      error: `メッセージは${GIFT_MESSAGE_MAX}文字以内で入力してください。`,
    }),
  deliver: z
    .string()
    .optional()
    .transform((value) => value?.trim() || todayJa())
    .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)), {
      error: 'お届け日を正しく入力してください。',
    })
    .refine(
      (value) => value >= todayJa() && value <= addDaysJa(todayJa(), GIFT_DELIVERY_DAYS_AHEAD),
      { error: `お届け日は今日から${GIFT_DELIVERY_DAYS_AHEAD}日後までの日付を選んでください。` },
    ),
};

export const giftOrderSchema = z.object(giftOrderFields);
export type GiftOrder = z.output<typeof giftOrderSchema>;

/** The confirmation screen of an order (the form's target, the session's cancel_url). */
export function giftConfirmPath(order: GiftOrder): string {
  const query = new URLSearchParams({
    months: String(order.months),
    recipient: order.recipient,
    deliver: order.deliver,
  });
  if (order.message) query.set('message', order.message);
  return `/gift/confirm?${query.toString()}`;
}

/** The link in the recipient's mail. */
export const giftRedeemPath = (token: string) => `/gift/redeem/${token}`;

/** A link's token as it is made (32 random bytes, base64url): anything else is not looked up. */
export const GIFT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** How the giver's account page says where a gift stands. */
export function giftStateLabel(gift: {
  state: 'pending' | 'paid' | 'expired' | 'failed' | 'refunded';
  deliverAt: Date;
  deliveredAt: Date | null;
  redeemedAt: Date | null;
}): string {
  if (gift.state === 'pending') return '支払い待ち';
  if (gift.state === 'refunded') return '返金済み';
  if (gift.state !== 'paid') return '期限切れ（お支払いなし）';
  if (gift.redeemedAt) return '受け取り済み';
  if (gift.deliveredAt) return '送信済み';
  return `送信予定（${formatDateJa(gift.deliverAt)}）`;
}
