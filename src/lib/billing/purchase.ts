import { formatDateTime, formatYen } from '@/lib/format';
import { z } from '@/lib/zod';

/**
 * Single articles (記事単体購入, docs/decisions/053-one-time-payments.md): what the server, the
 * confirmation screen, the paywall and the account page share — the price rule, the ways to pay
 * and how a purchase's state is said.
 */

/** A post's price in yen, tax included: whole yen from ¥100 to ¥50,000 (the posts model). */
export const PRICE_MIN = 100;
export const PRICE_MAX = 50_000;

/** The price a post is sold singly at, or null (empty, out of range, or a public post). */
export function salePriceOf(post: {
  isPublicPreview: boolean;
  price?: number | null;
}): number | null {
  const { price } = post;
  if (post.isPublicPreview || typeof price !== 'number' || !Number.isInteger(price)) return null;
  return price >= PRICE_MIN && price <= PRICE_MAX ? price : null;
}

export const PURCHASE_METHODS = ['card', 'konbini', 'paypay'] as const;
export type PurchaseMethod = (typeof PURCHASE_METHODS)[number];

export const METHOD_LABELS: Record<PurchaseMethod, string> = {
  card: 'クレジットカード',
  konbini: 'コンビニ払い',
  paypay: 'PayPay',
};

/** Konbini takes ¥120 and more (Stripe's range): below it, the method is not offered. */
export const KONBINI_MINIMUM = 120;
/** Days a konbini voucher can be paid (Stripe's default, `expires_after_days`). */
export const KONBINI_DAYS = 3;

export const methodsFor = (price: number): PurchaseMethod[] =>
  PURCHASE_METHODS.filter((method) => method !== 'konbini' || price >= KONBINI_MINIMUM);

/** The confirmation screen of a post's purchase (the paywall's button, the session's cancel_url). */
export const purchaseConfirmPath = (contentId: string) =>
  `/purchase/post/${encodeURIComponent(contentId)}`;

/** Where the provider sends the buyer back: the page that reads the ledger (never marks paid). */
export const purchaseStatusPath = (purchaseId: string) => `/purchase/status/${purchaseId}`;

/**
 * What `purchase=` names in the checkout form: `post:ID` (a single article) or `tip` (its post
 * and amount in fields of their own, src/lib/billing/tip.ts).
 */
export const purchaseRefSchema = z
  .string({ error: '購入する記事を指定してください。' })
  .regex(/^(post:[A-Za-z0-9_-]{1,50}|tip)$/, { error: '購入する記事を指定してください。' })
  .transform((ref) =>
    ref === 'tip'
      ? { kind: 'tip' as const }
      : { kind: 'post' as const, contentId: ref.slice('post:'.length) },
  );

export type PurchaseState = 'pending' | 'paid' | 'expired' | 'failed' | 'refunded';

/** The consumption tax in a tax-included amount at 10%, rounded down (as the receipts). */
export const taxIn = (amount: number) => Math.floor((amount * 10) / 110);

/** 「この記事を購入（¥300）」 */
export const buyLabel = (price: number) => `この記事を購入（${formatYen(price)}）`;

/** How the account page says a purchase's state. */
export function purchaseStateLabel(purchase: {
  state: PurchaseState;
  voucherExpiresAt: Date | null;
}): string {
  switch (purchase.state) {
    case 'paid':
      return '支払い済み';
    case 'pending':
      return purchase.voucherExpiresAt
        ? `お支払い待ち（期限 ${formatDateTime(purchase.voucherExpiresAt)}）`
        : 'お支払い手続き中';
    case 'expired':
      return '期限切れ';
    case 'failed':
      return 'お支払いできませんでした';
    case 'refunded':
      return '返金済み';
  }
}
