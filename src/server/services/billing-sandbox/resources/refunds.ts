import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { CUSTOMER_TYPE, INVOICE_TYPE, customerNow, num } from '../cycle/calendar';
import { invalidRequest, resourceMissing } from '../errors';
import { recordEvent } from '../events';
import { type ListAnswer } from '../list';
import {
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
} from '../object-store';
import { paymentIntentStateOf } from './payment-intents';
import { type Route, type RouteContext, listRoute, retrieveRoute } from './route';

/**
 * /v1/invoice_payments (list by invoice) and /v1/refunds (create, retrieve, list): what the
 * site needs to give back the payment of an invoice, as on Stripe (API 2025-03-31 and later,
 * where an invoice names its payments through invoice_payments, not `charge`/`payment_intent`).
 *
 * The sandbox keeps no PaymentIntent or Charge objects: a paid invoice's payment is named by
 * ids derived from the invoice's (`in_X` → `pi_X`, `ch_X`, `inpay_X`), so the same refund call
 * works as on Stripe. A refund is made at once (`status: succeeded`) and recorded as the
 * `refund.created` event; the invoice stays `paid`, as on Stripe.
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

/** The invoice a `payment_intent` or `charge` names, with its row locked until the end. */
async function paidInvoiceFor(
  context: RouteContext,
  param: 'payment_intent' | 'charge',
  id: string,
): Promise<SandboxObject> {
  const prefix = param === 'charge' ? 'ch_' : 'pi_';
  const invoice = id.startsWith(prefix)
    ? await findObjectForUpdate(context.db, INVOICE_TYPE, `in_${id.slice(prefix.length)}`)
    : null;
  if (!invoice || !invoicePayment(invoice)) throw resourceMissing(param, id, param);
  return invoice;
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
    const scoped = { ...context, db };
    const invoice = paymentIntent
      ? await paidInvoiceFor(scoped, 'payment_intent', paymentIntent)
      : await paidInvoiceFor(scoped, 'charge', charge ?? '');
    const chargeId = chargeOf(invoice.id);
    const earlier = await findAllObjects(db, REFUND_TYPE, [{ field: 'charge', in: [chargeId] }]);
    const refunded = earlier.reduce((sum, refund) => sum + num(refund, 'amount'), 0);
    const left = num(invoice, 'amount_paid') - refunded;
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
    const customer = await findObject(db, CUSTOMER_TYPE, String(invoice.customer));
    const at = customer ? await customerNow(db, customer) : Math.floor(Date.now() / 1000);
    const refund: SandboxObject = {
      id: newObjectId('re'),
      object: 'refund',
      amount: amount ?? left,
      balance_transaction: null,
      charge: chargeId,
      created: at,
      currency: invoice.currency,
      destination_details: null,
      metadata,
      payment_intent: paymentIntentOf(invoice.id),
      reason: reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    await insertObject(db, REFUND_TYPE, refund);
    await recordEvent(db, 'refund.created', refund, at);
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
