import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { recordEvent } from '../events';
import {
  type SandboxObject,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  nowSeconds,
  saveObject,
} from '../object-store';
import type { Metadata } from '../params';
import type { OneTimeMethod } from '../resources/checkout-payment-mode';
import { chargePaymentMethod, declineCodeOf } from '../resources/payment-methods';
import { num } from './calendar';

/**
 * One-time payments (Checkout in `payment` mode): their PaymentIntents and Charges, kept as
 * Stripe answers them (`payment_intent`, `charge`), and each step with its events — the
 * PaymentIntent made at the session's first confirmation, a card charged (succeeded, declined
 * or waiting for 3-D Secure), a redirect (PayPay, 3-D Secure) or a konbini voucher waiting
 * (`requires_action`), then succeeded or failed. What Stripe's objects do not say (the session,
 * the customer's test clock, the voucher's state, the payer's e-mail) is kept beside the
 * PaymentIntent (`sandbox.one_time_payment_state`, never answered). The session's side:
 * resources/checkout-sessions.ts; konbini's: konbini.ts.
 */

export const PAYMENT_INTENT_TYPE = 'payment_intent';
export const CHARGE_TYPE = 'charge';
export const PAYMENT_STATE_TYPE = 'sandbox.one_time_payment_state';

export type VoucherStatus = 'open' | 'paid' | 'expired';

export type PaymentState = SandboxObject & {
  payment_intent: string;
  checkout_session: string;
  customer: string | null;
  /** The customer's test clock when the payment was confirmed (its voucher's time). */
  test_clock: string | null;
  /** The payer's e-mail (the customer's, else the session's customer_email). */
  email: string | null;
  /** The method of the attempt now under way. */
  method: OneTimeMethod | null;
  voucher_expires_at: number | null;
  voucher_status: VoucherStatus | null;
};

const stateId = (paymentIntentId: string) => `onetime_${paymentIntentId}`;

export async function findPaymentIntent(db: Db, id: string): Promise<SandboxObject | null> {
  return findObject(db, PAYMENT_INTENT_TYPE, id);
}

/** The PaymentIntent under its row lock (taken after its session's, as every write here does). */
export async function lockPaymentIntent(
  db: Db,
  id: string,
  options: { skipLocked?: boolean } = {},
): Promise<SandboxObject | null> {
  return findObjectForUpdate(db, PAYMENT_INTENT_TYPE, id, options);
}

export async function paymentStateOf(db: Db, id: string): Promise<PaymentState | null> {
  return (await findObject(db, PAYMENT_STATE_TYPE, stateId(id))) as PaymentState | null;
}

export async function savePaymentState(db: Db, state: PaymentState): Promise<void> {
  await saveObject(db, state);
}

/** "Now" for the payment: its customer's test clock's time, else the real time. */
export async function paymentNow(db: Db, state: PaymentState): Promise<number> {
  const clock = state.test_clock
    ? await findObject(db, 'test_helpers.test_clock', state.test_clock)
    : null;
  return clock ? num(clock, 'frozen_time') : nowSeconds();
}

/** Stripe's `last_payment_error` of the failures the sandbox simulates. */
const PAYMENT_ERRORS = {
  card_declined: { type: 'card_error', message: 'Your card was declined.' },
  payment_intent_authentication_failure: {
    type: 'invalid_request_error',
    message:
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
  },
  payment_intent_payment_attempt_expired: {
    type: 'invalid_request_error',
    message:
      'The payment attempt for this PaymentIntent has expired: the konbini payment was not made before its instructions expired.',
  },
} as const;

export type PaymentErrorCode = keyof typeof PAYMENT_ERRORS;

export function lastPaymentError(
  code: PaymentErrorCode,
  paymentMethod: { id: string } | null,
  options: { declineCode?: string; charge?: string } = {},
): Record<string, unknown> {
  const { type, message } = PAYMENT_ERRORS[code];
  const insufficient = options.declineCode === 'insufficient_funds';
  return {
    ...(options.charge ? { charge: options.charge } : {}),
    code,
    decline_code: options.declineCode ?? null,
    message: insufficient ? 'Your card has insufficient funds.' : message,
    payment_method: paymentMethod,
    type,
  };
}

/** The payment method options of a PaymentIntent paid through Checkout, per method. */
function intentMethodOptions(methods: readonly OneTimeMethod[], konbiniDays: number) {
  const options: Record<string, unknown> = {};
  if (methods.includes('card')) {
    options.card = {
      installments: null,
      mandate_options: null,
      network: null,
      request_three_d_secure: 'automatic',
    };
  }
  if (methods.includes('konbini')) {
    options.konbini = {
      confirmation_number: null,
      expires_after_days: konbiniDays,
      expires_at: null,
      product_description: null,
    };
  }
  if (methods.includes('paypay')) options.paypay = {};
  return options;
}

export type NewAttempt = {
  session: SandboxObject;
  customer: SandboxObject | null;
  email: string | null;
  methods: readonly OneTimeMethod[];
  konbiniDays: number;
  intentData: { metadata: Metadata; description: string | null };
  at: number;
};

/**
 * The session's PaymentIntent for an attempt to pay it: made at its first confirmation, as
 * Stripe makes it (`payment_intent.created`), and taken up again by each later attempt (after
 * a declined card or PayPay), its last error cleared. The caller holds the session's row.
 */
export async function paymentIntentForAttempt(
  db: Db,
  attempt: NewAttempt,
  method: OneTimeMethod,
): Promise<{ intent: SandboxObject; state: PaymentState }> {
  const { session, customer, at } = attempt;
  const existing =
    typeof session.payment_intent === 'string'
      ? await lockPaymentIntent(db, session.payment_intent)
      : null;
  const state = existing ? await paymentStateOf(db, existing.id) : null;
  const payer = {
    customer: customer?.id ?? null,
    test_clock: typeof customer?.test_clock === 'string' ? customer.test_clock : null,
    email: attempt.email,
    method,
  };
  if (existing && state) {
    const intent = {
      ...existing,
      customer: payer.customer,
      last_payment_error: null,
      next_action: null,
    };
    await saveObject(db, intent);
    const next: PaymentState = { ...state, ...payer };
    await saveObject(db, next);
    return { intent, state: next };
  }
  const id = newObjectId('pi');
  const intent: SandboxObject = {
    id,
    object: 'payment_intent',
    amount: session.amount_total,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
    confirmation_method: 'automatic',
    created: at,
    currency: session.currency,
    customer: payer.customer,
    customer_account: null,
    description: attempt.intentData.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: attempt.intentData.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: intentMethodOptions(attempt.methods, attempt.konbiniDays),
    payment_method_types: [...attempt.methods],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  const created: PaymentState = {
    id: stateId(id),
    object: PAYMENT_STATE_TYPE,
    created: at,
    payment_intent: id,
    checkout_session: session.id,
    ...payer,
    voucher_expires_at: null,
    voucher_status: null,
  };
  await insertObject(db, PAYMENT_INTENT_TYPE, intent);
  await insertObject(db, PAYMENT_STATE_TYPE, created);
  await recordEvent(db, 'payment_intent.created', intent, at);
  return { intent, state: created };
}

function cardDetails(paymentMethod: SandboxObject, amount: number, authenticated: boolean) {
  const card = paymentMethod.card as Record<string, unknown>;
  return {
    amount_authorized: amount,
    brand: card.brand,
    checks: card.checks,
    country: card.country,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    fingerprint: card.fingerprint,
    funding: card.funding,
    installments: null,
    last4: card.last4,
    mandate: null,
    network: card.brand,
    network_token: { used: false },
    three_d_secure: authenticated
      ? { authentication_flow: 'challenge', result: 'authenticated', version: '2.2.0' }
      : null,
    wallet: null,
  };
}

type ChargeOutcome =
  { paid: true; store?: string; authenticated?: boolean } | { paid: false; declineCode: string };

/** A charge of the PaymentIntent's amount to the payment method, with its event. */
async function makeCharge(
  db: Db,
  intent: SandboxObject,
  paymentMethod: SandboxObject,
  outcome: ChargeOutcome,
  at: number,
): Promise<SandboxObject> {
  const amount = intent.amount as number;
  const type = String(paymentMethod.type);
  const details =
    type === 'card'
      ? cardDetails(paymentMethod, amount, outcome.paid && outcome.authenticated === true)
      : type === 'konbini'
        ? { store: outcome.paid && outcome.store ? { chain: outcome.store } : null }
        : {};
  const charge: SandboxObject = {
    id: newObjectId('ch'),
    object: 'charge',
    amount,
    amount_captured: outcome.paid ? amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: paymentMethod.billing_details,
    calculated_statement_descriptor: null,
    captured: outcome.paid,
    created: at,
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: outcome.paid ? null : 'card_declined',
    failure_message: outcome.paid
      ? null
      : String(lastPaymentError('card_declined', null, outcome).message),
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: outcome.paid
      ? {
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          seller_message: 'Payment complete.',
          type: 'authorized',
        }
      : {
          network_status: 'declined_by_network',
          reason: outcome.declineCode,
          risk_level: 'normal',
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        },
    paid: outcome.paid,
    payment_intent: intent.id,
    payment_method: paymentMethod.id,
    payment_method_details: { type, [type]: details },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: outcome.paid ? 'succeeded' : 'failed',
    transfer_data: null,
    transfer_group: null,
  };
  await insertObject(db, CHARGE_TYPE, charge);
  await recordEvent(db, outcome.paid ? 'charge.succeeded' : 'charge.failed', charge, at);
  return charge;
}

/**
 * The payment made: a succeeded charge (`charge.succeeded`) and the PaymentIntent
 * `succeeded` (`payment_intent.succeeded`). `store`: the konbini chain it was paid at.
 */
export async function succeedPayment(
  db: Db,
  intent: SandboxObject,
  paymentMethod: SandboxObject,
  at: number,
  details: { store?: string; authenticated?: boolean } = {},
): Promise<SandboxObject> {
  const charge = await makeCharge(db, intent, paymentMethod, { paid: true, ...details }, at);
  const succeeded: SandboxObject = {
    ...intent,
    amount_received: intent.amount,
    last_payment_error: null,
    latest_charge: charge.id,
    next_action: null,
    payment_method: paymentMethod.id,
    status: 'succeeded',
  };
  await saveObject(db, succeeded);
  await recordEvent(db, 'payment_intent.succeeded', succeeded, at);
  return succeeded;
}

/** The attempt failed: the PaymentIntent waits for another payment method (`payment_failed`). */
export async function failPayment(
  db: Db,
  intent: SandboxObject,
  error: Record<string, unknown>,
  at: number,
  latestCharge: string | null = null,
): Promise<SandboxObject> {
  const failed: SandboxObject = {
    ...intent,
    last_payment_error: error,
    latest_charge: latestCharge ?? intent.latest_charge,
    next_action: null,
    status: 'requires_payment_method',
  };
  await saveObject(db, failed);
  await recordEvent(db, 'payment_intent.payment_failed', failed, at);
  return failed;
}

/** The PaymentIntent waits for the payer (`payment_intent.requires_action`). */
export async function awaitAction(
  db: Db,
  intent: SandboxObject,
  paymentMethodId: string,
  nextAction: Record<string, unknown>,
  at: number,
): Promise<SandboxObject> {
  const waiting: SandboxObject = {
    ...intent,
    next_action: nextAction,
    payment_method: paymentMethodId,
    status: 'requires_action',
  };
  await saveObject(db, waiting);
  await recordEvent(db, 'payment_intent.requires_action', waiting, at);
  return waiting;
}

export type CardResult =
  | { result: 'succeeded'; intent: SandboxObject }
  | { result: 'declined'; intent: SandboxObject; declineCode: string }
  | { result: 'requires_action'; intent: SandboxObject };

/**
 * Charges the card (a test card behaves as it does for invoices): paid; declined (a failed
 * charge, `charge.failed`, and `payment_intent.payment_failed`); or waiting for the 3-D Secure
 * challenge (`redirect_to_url`: `redirect`, the challenge page and where it returns to).
 * `authenticated`: the cardholder has just passed it (then no challenge is asked again).
 */
export async function chargeCard(
  db: Db,
  intent: SandboxObject,
  card: SandboxObject,
  options: {
    at: number;
    authenticated: boolean;
    redirect: { url: string; return_url: string } | null;
  },
): Promise<CardResult> {
  const { at } = options;
  const result = await chargePaymentMethod(db, card.id, options.authenticated);
  if (result === 'succeeded') {
    const authenticated = options.authenticated;
    return { result, intent: await succeedPayment(db, intent, card, at, { authenticated }) };
  }
  if (result === 'requires_action') {
    if (!options.redirect)
      throw new Error(`billing sandbox: ${intent.id} asked to authenticate again`);
    const nextAction = { type: 'redirect_to_url', redirect_to_url: options.redirect };
    return { result, intent: await awaitAction(db, intent, card.id, nextAction, at) };
  }
  const declineCode = await declineCodeOf(db, card.id);
  const charge = await makeCharge(db, intent, card, { paid: false, declineCode }, at);
  const error = lastPaymentError('card_declined', card, { declineCode, charge: charge.id });
  const failed = await failPayment(
    db,
    { ...intent, payment_method: card.id },
    error,
    at,
    charge.id,
  );
  return { result, intent: failed, declineCode };
}

/**
 * An open session that expires takes its unpaid PaymentIntent with it, as Checkout cancels
 * it (`payment_intent.canceled`, `cancellation_reason: abandoned`).
 */
export async function cancelAbandonedPayment(db: Db, id: string, at: number): Promise<void> {
  const intent = await lockPaymentIntent(db, id);
  if (!intent || intent.status === 'succeeded' || intent.status === 'canceled') return;
  const canceled: SandboxObject = {
    ...intent,
    canceled_at: at,
    cancellation_reason: 'abandoned',
    next_action: null,
    status: 'canceled',
  };
  await saveObject(db, canceled);
  await recordEvent(db, 'payment_intent.canceled', canceled, at);
}
