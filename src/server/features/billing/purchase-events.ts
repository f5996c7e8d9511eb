import 'server-only';
import type Stripe from 'stripe';
import { noteAudienceChange } from '@/server/features/audience';
import {
  type Purchase,
  markPurchaseExpired,
  markPurchasePaid,
  markPurchaseRefunded,
  notePurchaseVoucher,
  purchaseById,
  purchaseByPaymentIntent,
} from '@/server/features/purchases';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { notifyKonbiniVoucher } from './notifications';
import { billingProvider } from './provider';

/**
 * The provider's word on one-time payments (docs/decisions/053-one-time-payments.md), applied
 * to the purchases ledger. As for subscriptions (records.ts), the session or charge is re-read
 * from the provider rather than trusted from the event; a payment is applied only to the row
 * its metadata names when the session's id, amount and customer are the row's: anything else is
 * logged and changes nothing.
 */

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** What happened to a payment-mode session, by the event that reported it. */
export type SessionEvent = 'completed' | 'async-succeeded' | 'async-failed' | 'expired';

/** The row the session pays for, if the session is exactly that row's; null (logged) if not. */
async function rowOf(db: Db, session: Stripe.Checkout.Session): Promise<Purchase | null> {
  const id = session.metadata?.purchase;
  const row = id ? await purchaseById(db, id) : null;
  const problem = !row
    ? 'no purchase'
    : row.sessionId !== session.id
      ? 'another session'
      : session.amount_total !== row.amount || session.currency !== 'jpy'
        ? `amount ${session.amount_total} ${session.currency} for ${row.amount} jpy`
        : idOf(session.customer) !== row.customerId
          ? 'another customer'
          : null;
  if (!problem) return row;
  console.warn('[billing] payment session not applied:', session.id, id ?? '-', problem);
  return null;
}

/**
 * The paid row with its audit line, in one transaction: the row paid is the grant (of a post;
 * a paid tip grants nothing).
 */
async function pay(db: Db, row: Purchase, paymentIntentId: string | null): Promise<void> {
  const paid = await db.transaction(async (tx) => {
    const moved = await markPurchasePaid(tx, row.id, paymentIntentId, new Date());
    if (!moved) return null;
    await recordAudit(tx, {
      actor: 'billing',
      action: 'billing.purchase.paid',
      target: row.userId,
      detail: {
        purchase: row.id,
        kind: row.kind,
        post: row.contentId,
        amount: row.amount,
        method: row.method,
        paymentIntent: paymentIntentId,
      },
    });
    return moved;
  });
  // The buyer's audience cookie is not trusted past this: their next request reads the ledger.
  // A tip opens nothing: its payer's audience stays as it was.
  if (paid?.userId && paid.kind === 'post') noteAudienceChange(paid.userId);
}

/** A payment-mode Checkout Session's event, applied to its purchase. */
export async function applyPaymentSession(
  db: Db,
  sessionId: string,
  event: SessionEvent,
): Promise<void> {
  const { stripe } = await billingProvider(db);
  const session = await stripe.checkout.sessions.retrieve(sessionId, {
    expand: ['payment_intent'],
  });
  if (session.mode !== 'payment') return;
  const row = await rowOf(db, session);
  if (!row) return;
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  if (session.payment_status === 'paid') {
    await pay(db, row, idOf(session.payment_intent));
    return;
  }
  if (event === 'async-failed' || event === 'expired' || session.status === 'expired') {
    await markPurchaseExpired(db, row.id, new Date());
    return;
  }
  const voucher = intent?.next_action?.konbini_display_details;
  if (event === 'completed' && intent && voucher?.hosted_voucher_url) {
    const waiting = await notePurchaseVoucher(db, row.id, {
      paymentIntentId: intent.id,
      url: voucher.hosted_voucher_url,
      expiresAt: new Date(voucher.expires_at * 1000),
    });
    if (waiting) await notifyKonbiniVoucher(db, waiting);
  }
}

/** A charge refunded in full: its purchase refunded, and what it opened closed at once. */
export async function applyChargeRefunded(db: Db, chargeId: string): Promise<void> {
  const { stripe } = await billingProvider(db);
  const charge = await stripe.charges.retrieve(chargeId);
  const intentId = idOf(charge.payment_intent);
  const row = intentId ? await purchaseByPaymentIntent(db, intentId) : null;
  if (!row) return;
  if (!charge.refunded || charge.amount_refunded < row.amount) {
    console.warn(
      '[billing] partial refund left the purchase paid:',
      row.id,
      charge.amount_refunded,
    );
    return;
  }
  const refunded = await db.transaction(async (tx) => {
    const moved = await markPurchaseRefunded(tx, row.id, new Date());
    if (!moved) return null;
    await recordAudit(tx, {
      actor: 'billing',
      action: 'billing.purchase.refunded',
      target: row.userId,
      detail: {
        purchase: row.id,
        kind: row.kind,
        post: row.contentId,
        amount: charge.amount_refunded,
      },
    });
    return moved;
  });
  if (refunded?.userId && refunded.kind === 'post') noteAudienceChange(refunded.userId);
}
