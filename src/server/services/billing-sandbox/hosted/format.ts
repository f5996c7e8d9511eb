import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { recurringOf } from '../cycle/calendar';
import { type SandboxObject, findObject } from '../object-store';
import { grossAmountOf } from '../resources/checkout-line-items';
import { subscriptionStateLabel } from '@/lib/subscription-labels';
import { formatNumber } from '@/lib/format';

/** How the pages say amounts, dates and statuses in Japanese. */

const DAY = 24 * 60 * 60;

export function formatAmount(amount: number, currency: string): string {
  if (currency === 'jpy') return `¥${formatNumber(amount)}`;
  const format = new Intl.NumberFormat('ja-JP', { style: 'currency', currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

const DATE = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/** A date as the site shows it (Japan time): 2026年7月1日. */
export function formatDate(seconds: number): string {
  return DATE.format(new Date(seconds * 1000));
}

const TIME = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A date and time in Japan: 2026年12月4日 23:59. */
export function formatDateTime(seconds: number): string {
  return `${formatDate(seconds)} ${TIME.format(new Date(seconds * 1000))}`;
}

export function addDays(seconds: number, days: number): number {
  return seconds + days * DAY;
}

const UNITS = { day: '日', week: '週', month: '月', year: '年' } as const;
const COUNTED_UNITS = { day: '日', week: '週間', month: 'か月', year: '年' } as const;

/** "月", or "3か月" for every three months. */
function periodOf(price: SandboxObject): string {
  const { interval, interval_count: count } = recurringOf(price);
  return count === 1 ? UNITS[interval] : `${count}${COUNTED_UNITS[interval]}`;
}

/** "¥1,100（税込）／月": the amount the customer pays each period, tax included. */
export function priceLabel(price: SandboxObject): string {
  const { total } = grossAmountOf(price);
  return `${formatAmount(total, String(price.currency))}（税込）／${periodOf(price)}`;
}

/** "¥1,100／月", for a sentence that has already said 税込. */
export function shortPriceLabel(price: SandboxObject): string {
  return `${formatAmount(grossAmountOf(price).total, String(price.currency))}／${periodOf(price)}`;
}

export async function productNameOf(db: Db, price: SandboxObject): Promise<string> {
  const product = await findObject(db, 'product', String(price.product));
  return typeof product?.name === 'string' ? product.name : String(price.product);
}

/** A plan as a choice or a heading: "会員プラン（¥1,100（税込）／月）". */
export async function planLabel(db: Db, price: SandboxObject): Promise<string> {
  const name = await productNameOf(db, price);
  const nickname = typeof price.nickname === 'string' && price.nickname ? ` ${price.nickname}` : '';
  return `${name}${nickname}（${priceLabel(price)}）`;
}

/**
 * A subscription's status in the site's words (src/lib/subscription-labels.ts), so the portal
 * and the site name a state the same way; one set to end at its period's end says so, with the
 * date.
 */
export function subscriptionStatusLabel(subscription: SandboxObject): string {
  const seconds = (value: unknown) => (typeof value === 'number' ? value : null);
  return subscriptionStateLabel({
    status: String(subscription.status),
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    endsAt: seconds(subscription.cancel_at) ?? seconds(subscription.current_period_end),
    trialEnd: seconds(subscription.trial_end),
  });
}

const INVOICE_STATUSES: Record<string, string> = {
  draft: '下書き',
  open: '未払い',
  paid: '支払い済み',
  uncollectible: '回収不能',
  void: '無効',
};

export function invoiceStatusLabel(invoice: SandboxObject): string {
  const status = String(invoice.status);
  return INVOICE_STATUSES[status] ?? status;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  jcb: 'JCB',
  diners: 'Diners Club',
  discover: 'Discover',
};

/** "Visa 末尾 4242（有効期限 04/30）". */
export function cardLabel(paymentMethod: SandboxObject): string {
  const card = paymentMethod.card as {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
  };
  const brand = BRANDS[card.brand] ?? 'カード';
  const expiry = `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
  return `${brand} 末尾 ${card.last4}（有効期限 ${expiry}）`;
}
