import 'server-only';
import type Stripe from 'stripe';
import { env } from '@/env';
import { postAccess } from '@/lib/access/post-access';
import {
  KONBINI_DAYS,
  KONBINI_MINIMUM,
  type PurchaseMethod,
  methodsFor,
  purchaseConfirmPath,
  purchaseStatusPath,
  salePriceOf,
  taxIn,
} from '@/lib/billing/purchase';
import { viewerForUser } from '@/server/features/access';
import { findItem, getFreePlanPostIds, postSchema, siteContent } from '@/server/features/content';
import type { AppUser } from '@/server/features/identity';
import {
  type Purchase,
  insertPendingPurchase,
  livePostPurchase,
  markPurchaseExpired,
  markPurchaseFailed,
  newPurchaseId,
  setPurchaseSession,
} from '@/server/features/purchases';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { CheckoutRefused } from './checkout';
import { ensureCustomer } from './customers';
import { type BillingProvider, billingProvider } from './provider';

/**
 * A single article bought (docs/decisions/053-one-time-payments.md): from the final
 * confirmation screen to the provider's hosted checkout in payment mode. The price is the
 * post's, read here (never the form's); the pending row is written with it before the session
 * is made with exactly that amount and the row's id in its metadata. Nothing here opens the
 * post: only the provider's events do (purchase-events.ts).
 */

const refuse = (message: string) => new CheckoutRefused('purchase-refused', message);

/** The post on sale singly, with its price, for this reader; a refusal says why not. */
export async function postOnSale(user: AppUser, contentId: string) {
  const post = await findItem('posts', postSchema, contentId);
  if (!post) throw refuse('この記事は見つかりません。');
  const price = salePriceOf(post);
  if (price === null) throw refuse('この記事は単体ではご購入いただけません。');
  const viewer = await viewerForUser(user);
  // A reader whose plan (or the free plan) already opens the post is never sold it.
  const freePlan = await getFreePlanPostIds(siteContent());
  if (postAccess(viewer, post, freePlan).full) {
    throw refuse('この記事はご利用中のプランで全文をお読みいただけます。購入の必要はありません。');
  }
  return { post, price };
}

/**
 * What the confirmation screen offers this reader: the post's title, its price and the ways to
 * pay; or why it cannot be bought (with the reader's live purchase, to link to); null when there
 * is no such post.
 */
export async function purchaseOffer(db: Db, user: AppUser, contentId: string) {
  try {
    const { post, price } = await postOnSale(user, contentId);
    const live = await livePostPurchase(db, user.id, post);
    return { post: { id: post.id, title: post.title }, price, methods: methodsFor(price), live };
  } catch (error) {
    if (error instanceof CheckoutRefused) return { refused: error.message };
    throw error;
  }
}

/**
 * A live purchase of the post already there: paid → refused; a konbini voucher waiting →
 * refused (one voucher at a time); an unfinished checkout → its session is expired at the
 * provider and the row with it, so that a new one can start (a session paid meanwhile cannot be
 * expired: refused while its events arrive).
 */
async function clearEarlier(db: Db, provider: BillingProvider, earlier: Purchase | null) {
  if (!earlier) return;
  if (earlier.state === 'paid') throw refuse('この記事はすでに購入済みです。');
  if (earlier.voucherUrl) {
    throw refuse(
      'この記事はコンビニでのお支払い待ちです。お支払い番号はアカウントページの購入履歴からご確認いただけます。',
    );
  }
  if (earlier.sessionId) {
    try {
      await provider.stripe.checkout.sessions.expire(earlier.sessionId);
    } catch {
      throw refuse('この記事のお支払いを確認しています。しばらくしてからもう一度お試しください。');
    }
    await markPurchaseExpired(db, earlier.id, new Date());
  } else {
    await markPurchaseFailed(db, earlier.id, new Date());
  }
}

/** Konbini takes ¥120 and more (Stripe's range): refused below it, whatever is paid for. */
export function checkMethod(method: PurchaseMethod, amount: number): void {
  if (method === 'konbini' && amount < KONBINI_MINIMUM) {
    throw refuse(`コンビニ払いは ¥${KONBINI_MINIMUM} 以上のお支払いでご利用いただけます。`);
  }
}

export async function startPurchase(
  db: Db,
  user: AppUser,
  contentId: string,
  method: PurchaseMethod,
  ip: string | null,
): Promise<{ url: string; purchase: Purchase }> {
  const { post, price } = await postOnSale(user, contentId);
  checkMethod(method, price);
  const provider = await billingProvider(db);
  await clearEarlier(db, provider, await livePostPurchase(db, user.id, post));
  const customerId = await ensureCustomer(db, { id: user.id, email: user.email, name: user.name });
  const purchase = await insertPendingPurchase(db, {
    id: newPurchaseId(),
    userId: user.id,
    post,
    amount: price,
    tax: taxIn(price),
    method,
    customerId,
  });
  if (!purchase)
    throw refuse('この記事のお手続きが進行中です。しばらくしてからもう一度お試しください。');
  return openPaymentSession(db, provider, purchase, {
    userId: user.id,
    ip,
    name: purchase.title,
    cancelPath: purchaseConfirmPath(post.id),
  });
}

/**
 * The provider's Checkout Session in payment mode for a pending row, with exactly the row's
 * amount and its id in the metadata (a failure marks the row failed), and the audit line of
 * its start: the one way every one-time payment reaches the provider.
 */
export async function openPaymentSession(
  db: Db,
  provider: BillingProvider,
  purchase: Purchase,
  options: {
    userId: string;
    ip: string | null;
    name: string;
    cancelPath: string;
    /** What only this kind says (a gift's plan and months): in the metadata and the audit. */
    details?: Record<string, string>;
  },
): Promise<{ url: string; purchase: Purchase }> {
  let session: Stripe.Checkout.Session;
  try {
    session = await provider.stripe.checkout.sessions.create(sessionParams(purchase, options));
  } catch (error) {
    await markPurchaseFailed(db, purchase.id, new Date());
    throw error;
  }
  if (!session.url) throw new Error('billing: the payment session has no URL');
  await setPurchaseSession(db, purchase.id, session.id);
  await recordAudit(db, {
    actor: options.userId,
    action: 'billing.purchase.start',
    target: options.userId,
    ip: options.ip,
    detail: {
      purchase: purchase.id,
      session: session.id,
      kind: purchase.kind,
      post: purchase.contentId,
      amount: purchase.amount,
      method: purchase.method,
      ...options.details,
    },
  });
  return { url: session.url, purchase: { ...purchase, sessionId: session.id } };
}

function sessionParams(
  purchase: Purchase,
  options: { userId: string; name: string; cancelPath: string; details?: Record<string, string> },
): Stripe.Checkout.SessionCreateParams {
  const { SITE_URL } = env();
  const metadata = {
    purchase: purchase.id,
    userId: options.userId,
    kind: purchase.kind,
    ...(purchase.contentId ? { post: purchase.contentId } : {}),
    ...options.details,
  };
  return {
    mode: 'payment',
    customer: purchase.customerId,
    client_reference_id: options.userId,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'jpy',
          unit_amount: purchase.amount,
          tax_behavior: 'inclusive',
          product_data: { name: options.name },
        },
      },
    ],
    // The pinned API version takes the methods as allowed_payment_method_types.
    allowed_payment_method_types: [purchase.method],
    ...(purchase.method === 'konbini'
      ? { payment_method_options: { konbini: { expires_after_days: KONBINI_DAYS } } }
      : {}),
    metadata,
    payment_intent_data: { metadata },
    // Receipts are the provider's invoices (decision 053), in the subscriptions' numbering.
    invoice_creation: { enabled: true, invoice_data: { metadata } },
    locale: 'ja',
    success_url: `${SITE_URL}${purchaseStatusPath(purchase.id)}`,
    cancel_url: `${SITE_URL}${options.cancelPath}`,
  };
}
