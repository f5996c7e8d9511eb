import 'server-only';
import { env } from '@/env';
import { and, eq, lt, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Db } from '@/server/platform/db/client';
import { billingWebhookEvents } from '@/server/platform/db/schema';
import { readBodyBytes } from '@/server/platform/http/read-body';
import { syncCatalogue } from './catalogue';
import {
  notifyAuthenticationRequired,
  notifyInvoicePaid,
  notifyPaymentFailed,
  notifySubscriptionChange,
  notifyTrialEnding,
} from './notifications';
import { paidGuestOf, recordGuestCheckout } from './guest-records';
import { CHARGING_STATUSES, keepOnePlan, wasReversedAsDuplicate } from './one-plan';
import { recordOfferRedemption } from './offers';
import { billingProvider } from './provider';
import { applyChargeRefunded, applyPaymentSession } from './purchase-events';
import { type SubscriptionChange, syncInvoice, syncSubscription } from './records';
import { WEBHOOK_PATH, webhookSecret } from './sandbox-setup';

/**
 * POST /api/webhooks/billing: the only way subscription records and purchases change. The raw body's
 * signature is checked by the SDK (Stripe-Signature, 300 s tolerance); each event id is
 * applied once, by the delivery that claims it (claimEvent); handlers re-read the object from
 * the provider (records.ts), so duplicated, late and reordered events end in the provider's
 * state. Types the site does not use are
 * answered 2xx, as Stripe asks, so that they are not retried.
 */

const MAX_BODY_BYTES = 512 * 1024;
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const json = (status: number, body: Record<string, unknown>) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

const idOf = (value: string | { id?: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Stores the subscription as the provider has it now, keeps the reader to one plan (a second
 * one is reversed at once, one-plan.ts), then sends the mails the change calls for, except for
 * a reversed duplicate, of which the reader gets the reversal's mail instead.
 */
async function applySubscription(
  db: Db,
  subscriptionId: string,
  notify: (db: Db, change: SubscriptionChange) => Promise<void>,
): Promise<void> {
  const change = await syncSubscription(db, subscriptionId);
  if (!change) return;
  const { after } = change;
  if (after.provider === 'stripe' && after.userId && after.customerId) {
    if (CHARGING_STATUSES.includes(after.status)) {
      await keepOnePlan(db, after.userId, after.customerId);
    }
    if (await wasReversedAsDuplicate(db, after.id)) return;
  }
  await notify(db, change);
}

/**
 * A completed checkout's subscription, applied as its `checkout.session.completed` event
 * applies it. Also called by the success page (checkout.ts, checkoutOutcome), so that the reader
 * who has just paid reads at once, whether the event arrives before or after: every step is
 * safe to repeat (the record is the provider's state, one-plan.ts claims each reversal once,
 * each mail is claimed once).
 */
export async function applyCompletedCheckout(db: Db, subscriptionId: string): Promise<void> {
  await applySubscription(db, subscriptionId, notifySubscriptionChange);
  // An offer counts when its checkout completes, never on a failed or abandoned attempt.
  await recordOfferRedemption(db, subscriptionId);
}

/**
 * A visitor's checkout just claimed by an account (guest-checkout.ts): its subscription applied
 * as a completed checkout's, and its first invoice, which the provider reported while the
 * checkout was nobody's, recorded with its receipt.
 */
export async function applyClaimedCheckout(db: Db, subscriptionId: string): Promise<void> {
  await applyCompletedCheckout(db, subscriptionId);
  const { stripe } = await billingProvider(db);
  const invoiceId = idOf((await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice);
  const synced = invoiceId ? await syncInvoice(db, invoiceId) : null;
  if (synced?.after.status !== 'paid' || (await wasReversedAsDuplicate(db, subscriptionId))) return;
  await notifyInvoicePaid(db, synced.after);
}

/**
 * What else applies the provider's events, given by whoever wires the webhook (the route and
 * the sandbox's in-process delivery): 法人プラン's organisations, which this feature cannot
 * import (they build on it).
 */
export type MoreEvents = (db: Db, event: Stripe.Event) => Promise<void>;

async function apply(db: Db, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed': {
      // A one-time payment (docs/decisions/053-one-time-payments.md): its purchase.
      if (event.data.object.mode === 'payment') {
        await applyPaymentSession(db, event.data.object.id, 'completed');
        return;
      }
      // A visitor's checkout is kept for the account that will claim it; until then its
      // customer is nobody's, and the steps below apply nothing.
      const guest = paidGuestOf(event.data.object);
      if (guest) await recordGuestCheckout(db, guest);
      const subscriptionId = idOf(event.data.object.subscription);
      if (!subscriptionId) return;
      await applyCompletedCheckout(db, subscriptionId);
      return;
    }
    case 'checkout.session.async_payment_succeeded':
      await applyPaymentSession(db, event.data.object.id, 'async-succeeded');
      return;
    case 'checkout.session.async_payment_failed':
      await applyPaymentSession(db, event.data.object.id, 'async-failed');
      return;
    case 'checkout.session.expired':
      await applyPaymentSession(db, event.data.object.id, 'expired');
      return;
    case 'charge.refunded':
      await applyChargeRefunded(db, event.data.object.id);
      return;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await applySubscription(db, event.data.object.id, notifySubscriptionChange);
      return;
    case 'customer.subscription.trial_will_end':
      await applySubscription(db, event.data.object.id, notifyTrialEnding);
      return;
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoiceId = event.data.object.id;
      if (!invoiceId) return;
      const synced = await syncInvoice(db, invoiceId);
      const subscriptionId = idOf(event.data.object.parent?.subscription_details?.subscription);
      if (subscriptionId) await applySubscription(db, subscriptionId, notifySubscriptionChange);
      if (!synced) return;
      if (event.type === 'invoice.paid') {
        // A reversed second plan's payment was refunded: its mail says so instead.
        if (subscriptionId && (await wasReversedAsDuplicate(db, subscriptionId))) return;
        await notifyInvoicePaid(db, synced.after);
      } else {
        // The attempt this event reports (the event's copy): each failure is told once.
        const failed = event.data.object;
        const next = failed.next_payment_attempt;
        await notifyPaymentFailed(
          db,
          synced.after,
          failed.attempt_count,
          next ? new Date(next * 1000) : null,
        );
      }
      return;
    }
    case 'invoice.payment_action_required': {
      // A payment waiting for the reader's 3-D Secure authentication: the invoice and the plan
      // (past_due on a renewal) are recorded; the notice links to the page that completes it.
      const waiting = event.data.object;
      const synced = waiting.id ? await syncInvoice(db, waiting.id) : null;
      const subscriptionId = idOf(waiting.parent?.subscription_details?.subscription);
      if (subscriptionId) await applySubscription(db, subscriptionId, notifySubscriptionChange);
      // A first payment is authenticated in the reader's browser at checkout, right then; any
      // later one (a renewal, the end of a trial) is charged without them: they are mailed.
      if (!synced || waiting.billing_reason === 'subscription_create') return;
      if (subscriptionId && (await wasReversedAsDuplicate(db, subscriptionId))) return;
      const next = waiting.next_payment_attempt;
      await notifyAuthenticationRequired(db, synced.after, next ? new Date(next * 1000) : null);
      return;
    }
    case 'price.created':
    case 'price.updated':
    case 'price.deleted':
    case 'product.updated':
      await syncCatalogue(db);
      return;
    default:
      return;
  }
}

export async function handleBillingWebhook(
  request: Request,
  db: Db,
  more?: MoreEvents,
): Promise<Response> {
  const signature = request.headers.get('stripe-signature');
  if (!signature) return json(400, { error: '署名（Stripe-Signature）がありません。' });
  const body = await readBodyBytes(request, MAX_BODY_BYTES);
  if (!body.ok) return json(body.status, { error: '本文を読み取れません。' });
  const secret = await webhookSecret(db);
  if (!secret) return json(503, { error: 'Webhook の署名シークレットが設定されていません。' });
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      Buffer.from(body.bytes),
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
    );
  } catch {
    return json(400, { error: '署名を確認できません。' });
  }
  const claim = await claimEvent(db, event);
  if (claim === 'applied') return json(200, { received: true, duplicate: true });
  if (claim === 'busy') {
    // Another delivery of this event is being applied right now (another instance, or a
    // redelivery that crossed it): a non-2xx makes the provider come back once it is done.
    return json(409, { error: '同じイベントを処理中です。しばらくしてから再送してください。' });
  }
  try {
    await apply(db, event);
    await more?.(db, event);
  } catch (error) {
    // The claim is given back: the provider retries, and the handlers are safe to run again.
    await db.delete(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id));
    console.error('[billing] webhook event failed:', event.type, event.id, error);
    return json(500, { error: 'イベントを処理できませんでした。' });
  }
  await db
    .update(billingWebhookEvents)
    .set({ state: 'applied' })
    .where(eq(billingWebhookEvents.id, event.id));
  return json(200, { received: true });
}

/** A claim older than this was left by a process that died while applying: taken over. */
const STALE_CLAIM_MS = 5 * 60_000;

/**
 * Takes the event for this delivery, atomically on the primary key, so that of two deliveries
 * at once (two instances behind a load balancer) exactly one applies it.
 */
async function claimEvent(db: Db, event: Stripe.Event): Promise<'claimed' | 'applied' | 'busy'> {
  const [claimed] = await db
    .insert(billingWebhookEvents)
    .values({ id: event.id, type: event.type, state: 'applying' })
    .onConflictDoNothing()
    .returning({ id: billingWebhookEvents.id });
  if (claimed) return 'claimed';
  const [takenOver] = await db
    .update(billingWebhookEvents)
    .set({ receivedAt: sql`now()` })
    .where(
      and(
        eq(billingWebhookEvents.id, event.id),
        eq(billingWebhookEvents.state, 'applying'),
        lt(
          billingWebhookEvents.receivedAt,
          sql`now() - make_interval(secs => ${STALE_CLAIM_MS / 1000})`,
        ),
      ),
    )
    .returning({ id: billingWebhookEvents.id });
  if (takenOver) return 'claimed';
  const [row] = await db
    .select({ state: billingWebhookEvents.state })
    .from(billingWebhookEvents)
    .where(eq(billingWebhookEvents.id, event.id));
  // Gone between the two statements: the applying delivery failed and gave it back.
  return row?.state === 'applied' ? 'applied' : 'busy';
}

/**
 * How the billing sandbox delivers its events (sandbox/runner.ts): those for this site's own
 * webhook URL go to the handler in process (the same signed request the network would carry),
 * so they arrive whatever address the server listens on; any other over the network.
 */
export function sandboxDeliveries(db: Db, more?: MoreEvents): typeof fetch {
  const own = new URL(WEBHOOK_PATH, env().SITE_URL).href;
  return (input, init) => {
    const request = new Request(input, init);
    return request.url === own ? handleBillingWebhook(request, db, more) : fetch(request);
  };
}
