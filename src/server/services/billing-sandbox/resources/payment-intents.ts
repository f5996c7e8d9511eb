import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { INVOICE_TYPE, num } from '../cycle/calendar';
import {
  PAYMENT_INTENT_TYPE,
  findPaymentIntent,
  lastPaymentError,
} from '../cycle/one-time-payments';
import { resourceMissing } from '../errors';
import { type SandboxObject, findObject, insertObject, saveObject } from '../object-store';
import { authenticationPagePath } from '../hosted/paths';
import type { ChargeResult } from './payment-methods';
import { type SiteRoute, type SiteRouteContext, listRoute } from './route';

/**
 * `GET /v1/payment_intents/:id` and `GET /v1/payment_intents?customer=`. A one-time payment's
 * PaymentIntent (Checkout in `payment` mode) is kept as Stripe answers it
 * (cycle/one-time-payments.ts); only those are listed. An invoice's payment has none of its
 * own: an invoice `in_X` is paid through `pi_X` (the ids refunds and invoice payments use), and
 * what its last charge did is kept beside the invoice (`sandbox.payment_intent_state`, never
 * answered): the card, whether it waits for the cardholder's 3-D Secure authentication
 * (`requires_action`, with `next_action` naming the sandbox's challenge page) and, for a
 * checkout, where the challenge returns to.
 */

export const PAYMENT_INTENT_STATE_TYPE = 'sandbox.payment_intent_state';

export type PaymentIntentState = SandboxObject & {
  invoice: string;
  payment_method: string | null;
  status: 'requires_action' | 'requires_payment_method' | 'succeeded';
  /** Stripe's `last_payment_error.code` of the last attempt, or null. */
  last_error: string | null;
  /** The checkout session whose page started the payment (the challenge returns there). */
  checkout_session: string | null;
  /** The customer's default card before the checkout set its own (restored on failure). */
  previous_default: string | null;
  /** The name the checkout's card form was given (the completed session's customer_details). */
  cardholder_name: string | null;
};

const suffixOf = (id: string) => id.slice(id.indexOf('_') + 1);
export const paymentIntentIdOf = (invoiceId: string) => `pi_${suffixOf(invoiceId)}`;
export const invoiceIdOfPaymentIntent = (id: string) =>
  id.startsWith('pi_') ? `in_${id.slice(3)}` : null;
const stateId = (invoiceId: string) => `pistate_${invoiceId}`;

export async function paymentIntentStateOf(
  db: Db,
  invoiceId: string,
): Promise<PaymentIntentState | null> {
  return (await findObject(
    db,
    PAYMENT_INTENT_STATE_TYPE,
    stateId(invoiceId),
  )) as PaymentIntentState | null;
}

/** Saves what an invoice's charge did (kept for its PaymentIntent and the challenge page). */
export async function recordChargeAttempt(
  db: Db,
  invoiceId: string,
  paymentMethod: string | null,
  result: ChargeResult | 'no_payment_method',
  at: number,
): Promise<void> {
  const existing = await paymentIntentStateOf(db, invoiceId);
  const status =
    result === 'succeeded'
      ? 'succeeded'
      : result === 'requires_action'
        ? 'requires_action'
        : 'requires_payment_method';
  const lastError = result === 'declined' ? 'card_declined' : null;
  if (existing) {
    await saveObject(db, {
      ...existing,
      payment_method: paymentMethod,
      status,
      last_error: lastError,
    });
    return;
  }
  const state: PaymentIntentState = {
    id: stateId(invoiceId),
    object: PAYMENT_INTENT_STATE_TYPE,
    created: at,
    invoice: invoiceId,
    payment_method: paymentMethod,
    status,
    last_error: lastError,
    checkout_session: null,
    previous_default: null,
    cardholder_name: null,
  };
  await insertObject(db, PAYMENT_INTENT_STATE_TYPE, state);
}

export async function savePaymentIntentState(db: Db, state: PaymentIntentState): Promise<void> {
  await saveObject(db, state);
}

/**
 * The PaymentIntent as Stripe answers it. `next_action` for a challenge: `redirect_to_url`
 * (with `return_url`) when a checkout page confirmed it with a return address, else
 * `use_stripe_sdk` (an invoice charged without the customer: Stripe.js or the hosted invoice
 * page runs the challenge), both naming the sandbox's challenge page.
 */
export function paymentIntentObject(
  invoice: SandboxObject,
  state: PaymentIntentState | null,
  origin: string,
  returnUrl: string | null,
): SandboxObject {
  const id = paymentIntentIdOf(invoice.id);
  const paid = invoice.status === 'paid';
  const status = paid
    ? 'succeeded'
    : invoice.status === 'void'
      ? 'canceled'
      : (state?.status ?? 'requires_payment_method');
  const challenge = `${origin}${authenticationPagePath(id)}`;
  const nextAction =
    status !== 'requires_action'
      ? null
      : returnUrl
        ? { type: 'redirect_to_url', redirect_to_url: { url: challenge, return_url: returnUrl } }
        : {
            type: 'use_stripe_sdk',
            use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: challenge },
          };
  const errorCode = status === 'succeeded' ? null : state?.last_error;
  return {
    id,
    object: 'payment_intent',
    amount: num(invoice, 'amount_due'),
    amount_capturable: 0,
    amount_received: paid ? num(invoice, 'amount_paid') : 0,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_sandbox`,
    confirmation_method: 'automatic',
    created: invoice.created,
    currency: invoice.currency,
    customer: invoice.customer,
    description: 'Subscription creation',
    last_payment_error:
      errorCode === 'card_declined' || errorCode === 'payment_intent_authentication_failure'
        ? lastPaymentError(errorCode, state?.payment_method ? { id: state.payment_method } : null, {
            declineCode: errorCode === 'card_declined' ? 'generic_decline' : undefined,
          })
        : null,
    latest_charge: paid ? `ch_${suffixOf(invoice.id)}` : null,
    livemode: false,
    metadata: {},
    next_action: nextAction,
    payment_method: state?.payment_method ?? null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    setup_future_usage: 'off_session',
    status,
  };
}

/** Where a checkout's challenge returns to: its own page. */
export function checkoutReturnUrl(origin: string, state: PaymentIntentState | null) {
  return state?.checkout_session
    ? `${origin}/billing-sandbox/checkout/${encodeURIComponent(state.checkout_session)}`
    : null;
}

async function retrieve(context: SiteRouteContext): Promise<SandboxObject> {
  context.params.finish();
  const id = context.id ?? '';
  const oneTime = await findPaymentIntent(context.db, id);
  if (oneTime) return oneTime;
  const invoiceId = invoiceIdOfPaymentIntent(id);
  const invoice = invoiceId ? await findObject(context.db, INVOICE_TYPE, invoiceId) : null;
  // Only an invoice with something to pay has a PaymentIntent.
  if (!invoice || num(invoice, 'amount_due') <= 0 || invoice.status === 'draft') {
    throw resourceMissing('payment_intent', id);
  }
  const state = await paymentIntentStateOf(context.db, invoice.id);
  return paymentIntentObject(
    invoice,
    state,
    context.origin,
    checkoutReturnUrl(context.origin, state),
  );
}

export const paymentIntentRoutes: SiteRoute[] = [
  { method: 'GET', pattern: ['payment_intents', ':id'], handle: retrieve },
  // The one-time payments' PaymentIntents (Checkout in payment mode), newest first.
  listRoute(['payment_intents'], PAYMENT_INTENT_TYPE, {
    filters: ({ params }) => {
      const customer = params.string('customer', 200);
      return customer ? [{ field: 'customer', in: [customer] }] : [];
    },
  }),
];
