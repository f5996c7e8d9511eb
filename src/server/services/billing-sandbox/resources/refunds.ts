import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { CUSTOMER_TYPE, INVOICE_TYPE, customerNow, num } from '../cycle/calendar';
import { invalidRequest, resourceMissing } from '../errors';
import { previousAttributes, recordEvent } from '../events';
import { type ListAnswer } from '../list';
import {
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  nowSeconds,
  saveObject,
} from '../object-store';
import { CHARGE_TYPE, findPaymentIntent } from '../cycle/one-time-payments';
import { paymentIntentStateOf } from './payment-intents';
import { type Route, type RouteContext, listRoute, retrieveRoute } from './route';

/**
 * /v1/invoice_payments (list by invoice) and /v1/refunds (create, retrieve, list): what the
 * site needs to give back a payment, as on Stripe (API 2025-03-31 and later, where an invoice
 * names its payments through invoice_payments, not `charge`/`payment_intent`).
 *
 * A one-time payment (Checkout in `payment` mode) has its PaymentIntent and Charge objects
 * (cycle/one-time-payments.ts): a refund counts on its charge (`amount_refunded`, `refunded`,
 * `charge.refunded`). An invoice's payment has none: it is named by ids derived from the
 * invoice's (`in_X` → `pi_X`, `ch_X`, `inpay_X`), so the same refund call works as on Stripe.
 * A refund is made at once (`status: succeeded`) and recorded as the `refund.created` event;
 * the invoice stays `paid`, as on Stripe.
 */

export const REFUND_TYPE = 'refund';

const suffixOf = (invoiceId: string) => invoiceId.slice(invoiceId.indexOf('_') + 1);
const paymentIntentOf = (invoiceId: string) => `pi_${suffixOf(invoiceId)}`;
const chargeOf = (invoiceId: string) => `ch_${suffixOf(invoiceId)}`;

/** An invoice's one payment, when something was paid on it. */
function invoicePayment(invoice: SandboxObject): SandboxObject | null {
  if (invoice.status !== 'paid' || num(invoice, 'amount_paid') <= 0) return null;
  const paidAt = (invoice.status_transitions as { paid_at?: number | null }).paid_at ?? null;
  return {
    id: `inpay_${suffixOf(invoice.id)}`,
    object: 'invoice_payment',
    amount_paid: invoice.amount_paid,
    amount_requested: invoice.amount_paid,
    created: paidAt ?? invoice.created,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: paymentIntentOf(invoice.id) },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: paidAt },
  };
}

/**
 * An open invoice's payment while its PaymentIntent waits for the cardholder (3-D Secure) or
 * another card: Stripe lists it as `open` with its PaymentIntent.
 */
async function openInvoicePayment(db: Db, invoice: SandboxObject): Promise<SandboxObject | null> {
  if (invoice.status !== 'open') return null;
  const state = await paymentIntentStateOf(db, invoice.id);
  if (!state || state.status === 'succeeded') return null;
  return {
    id: `inpay_${suffixOf(invoice.id)}`,
    object: 'invoice_payment',
    amount_paid: null,
    amount_requested: invoice.amount_remaining,
    created: state.created,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: paymentIntentOf(invoice.id) },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  };
}

async function listInvoicePayments(context: RouteContext): Promise<ListAnswer> {
  const { params, db, path } = context;
  const invoiceId = params.string('invoice', 200);
  params.integer('limit', 1, 100);
  params.finish();
  if (!invoiceId) {
    throw invalidRequest(
      'The billing sandbox lists invoice payments by `invoice` only.',
      'invoice',
    );
  }
  const invoice = await findObject(db, INVOICE_TYPE, invoiceId);
  const payment = invoice
    ? (invoicePayment(invoice) ?? (await openInvoicePayment(db, invoice)))
    : null;
  return { object: 'list', data: payment ? [payment] : [], has_more: false, url: path };
}

/** What a refund gives back: a payment's charge, what was paid and what is refunded already. */
type Refundable = {
  chargeId: string;
  paymentIntentId: string;
  currency: unknown;
  paid: number;
  refunded: number;
  customerId: string | null;
  /** A one-time payment's Charge object (an invoice's payment has none). */
  charge: SandboxObject | null;
};

/** A one-time payment's charge, under its row lock: refunds of one charge run one at a time. */
async function refundableCharge(db: Db, id: string, param: string): Promise<Refundable> {
  const charge = await findObjectForUpdate(db, CHARGE_TYPE, id);
  if (!charge) throw resourceMissing('charge', id, param);
  if (charge.status !== 'succeeded') {
    throw invalidRequest(`Charge ${id} did not succeed: there is nothing to refund.`, param);
  }
  return {
    chargeId: charge.id,
    paymentIntentId: String(charge.payment_intent),
    currency: charge.currency,
    paid: num(charge, 'amount'),
    refunded: num(charge, 'amount_refunded'),
    customerId: typeof charge.customer === 'string' ? charge.customer : null,
    charge,
  };
}

/**
 * What a `payment_intent` or `charge` names: a one-time payment's charge, else a paid
 * invoice's payment (`pi_X`/`ch_X` of `in_X`), its row locked until the end.
 */
async function refundableFor(
  db: Db,
  param: 'payment_intent' | 'charge',
  id: string,
): Promise<Refundable> {
  if (param === 'charge' && (await findObject(db, CHARGE_TYPE, id))) {
    return refundableCharge(db, id, param);
  }
  const intent = param === 'payment_intent' ? await findPaymentIntent(db, id) : null;
  if (intent) {
    if (intent.status !== 'succeeded' || typeof intent.latest_charge !== 'string') {
      throw invalidRequest(
        'This PaymentIntent does not have a successful charge to refund.',
        param,
      );
    }
    return refundableCharge(db, intent.latest_charge, param);
  }
  const prefix = param === 'charge' ? 'ch_' : 'pi_';
  const invoice = id.startsWith(prefix)
    ? await findObjectForUpdate(db, INVOICE_TYPE, `in_${id.slice(prefix.length)}`)
    : null;
  if (!invoice || !invoicePayment(invoice)) throw resourceMissing(param, id, param);
  const chargeId = chargeOf(invoice.id);
  const earlier = await findAllObjects(db, REFUND_TYPE, [{ field: 'charge', in: [chargeId] }]);
  return {
    chargeId,
    paymentIntentId: paymentIntentOf(invoice.id),
    currency: invoice.currency,
    paid: num(invoice, 'amount_paid'),
    refunded: earlier.reduce((sum, refund) => sum + num(refund, 'amount'), 0),
    customerId: String(invoice.customer),
    charge: null,
  };
}

/** A one-time payment's charge after a refund: what is refunded (`charge.refunded`). */
async function recordRefundOnCharge(db: Db, charge: SandboxObject, amount: number, at: number) {
  const refunded = num(charge, 'amount_refunded') + amount;
  const after: SandboxObject = {
    ...charge,
    amount_refunded: refunded,
    refunded: refunded >= num(charge, 'amount'),
  };
  await saveObject(db, after);
  await recordEvent(db, 'charge.refunded', after, at, previousAttributes(charge, after));
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const paymentIntent = params.string('payment_intent', 200);
  const charge = params.string('charge', 200);
  const amount = params.integer('amount', 1, 99_999_999);
  const reason = params.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer']);
  const metadata = params.metadata() ?? {};
  params.finish();
  if (!paymentIntent && !charge) {
    throw invalidRequest(
      'One of the following params should be provided for this request: payment_intent or charge.',
    );
  }
  if (paymentIntent && charge) {
    throw invalidRequest('You cannot specify both `charge` and `payment_intent`.', 'charge');
  }
  return context.db.transaction(async (db) => {
    const refundable = paymentIntent
      ? await refundableFor(db, 'payment_intent', paymentIntent)
      : await refundableFor(db, 'charge', charge ?? '');
    const { chargeId } = refundable;
    const left = refundable.paid - refundable.refunded;
    if (left <= 0) {
      throw invalidRequest(
        `Charge ${chargeId} has already been refunded.`,
        undefined,
        'charge_already_refunded',
      );
    }
    if (amount !== undefined && amount > left) {
      throw invalidRequest(
        `Refund amount (¥${amount}) is greater than unrefunded amount on charge (¥${left})`,
        'amount',
        'amount_too_large',
      );
    }
    const customer = refundable.customerId
      ? await findObject(db, CUSTOMER_TYPE, refundable.customerId)
      : null;
    const at = customer ? await customerNow(db, customer) : nowSeconds();
    const refund: SandboxObject = {
      id: newObjectId('re'),
      object: 'refund',
      amount: amount ?? left,
      balance_transaction: null,
      charge: chargeId,
      created: at,
      currency: refundable.currency,
      destination_details: null,
      metadata,
      payment_intent: refundable.paymentIntentId,
      reason: reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    await insertObject(db, REFUND_TYPE, refund);
    await recordEvent(db, 'refund.created', refund, at);
    if (refundable.charge)
      await recordRefundOnCharge(db, refundable.charge, num(refund, 'amount'), at);
    return refund;
  });
}

export const refundRoutes: Route[] = [
  { method: 'GET', pattern: ['invoice_payments'], handle: listInvoicePayments },
  { method: 'POST', pattern: ['refunds'], handle: create },
  retrieveRoute(['refunds', ':id'], REFUND_TYPE),
  listRoute(['refunds'], REFUND_TYPE, {
    filters: ({ params }) => {
      const paymentIntent = params.string('payment_intent', 200);
      const charge = params.string('charge', 200);
      return [
        ...(paymentIntent ? [{ field: 'payment_intent', in: [paymentIntent] }] : []),
        ...(charge ? [{ field: 'charge', in: [charge] }] : []),
      ];
    },
  }),
];
