import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { recordEvent } from '../events';
import {
  type SandboxObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  requireObject,
  saveObject,
} from '../object-store';
import type { InvoiceCreation } from '../resources/checkout-payment-mode';
import { CUSTOMER_TYPE, INVOICE_TYPE, customerNow, num } from './calendar';
import { draftOf, invoiceTotals, numbered, openInvoice } from './invoice-object';
import { productName } from './invoices';
import { paidInvoice, recordPaymentEvents } from './payments';
import { ensureTaxRate, taxBehaviorOf, taxEntry } from './tax';

/**
 * Post-payment invoices: the paid invoice a one-time payment leaves when its Checkout Session
 * has `invoice_creation.enabled` — made once the payment has succeeded (card and PayPay at the
 * session's completion, konbini when the voucher is paid), numbered in the customer's invoice
 * sequence as its subscription invoices are, with the session's `invoice_data`. As on Stripe
 * it has no `parent` (no subscription or quote made it) and `billing_reason: manual`; it is
 * already paid, so it neither charges anything nor touches the customer's balance.
 */

type PaidPayment = {
  customerId: string;
  /** The session's one price (its `price_data` is stored as an inactive price). */
  price: SandboxObject;
  invoiceData: InvoiceCreation['invoice_data'];
  at: number;
};

/** The invoice's line: the price's product, tax-inclusive (or not) as the price says. */
async function lineOf(db: Db, invoiceId: string, price: SandboxObject, at: number) {
  const amount = num(price, 'unit_amount');
  return {
    id: newObjectId('il'),
    object: 'line_item',
    amount,
    currency: price.currency,
    description: await productName(db, price),
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'invoice_item_details',
      invoice_item_details: {
        invoice_item: newObjectId('ii'),
        proration: false,
        proration_details: { credited_items: null },
        subscription: null,
      },
      subscription_item_details: null,
    },
    period: { start: at, end: at },
    pretax_credit_amounts: [],
    pricing: {
      type: 'price_details',
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: String(price.unit_amount),
    },
    quantity: 1,
    quantity_decimal: '1',
    subscription: null,
    subtotal: amount,
    taxes: [taxEntry(amount, taxBehaviorOf(price))],
  };
}

/**
 * Issues the paid invoice of a one-time payment that has just succeeded, with the events
 * Stripe sends for it: `invoice.created` (draft), `invoice.finalized`, `invoice.paid` and
 * `invoice.payment_succeeded`, at the payment's time. Takes the customer's test clock's row,
 * then the customer's (its invoice number changes), in the caller's transaction.
 */
export async function issuePostPaymentInvoice(
  db: Db,
  payment: PaidPayment,
): Promise<SandboxObject> {
  const { price, invoiceData, at } = payment;
  await customerNow(db, await requireObject(db, CUSTOMER_TYPE, payment.customerId), true);
  const customer = await findObjectForUpdate(db, CUSTOMER_TYPE, payment.customerId);
  if (!customer) throw new Error(`billing sandbox: no customer ${payment.customerId}`);
  await ensureTaxRate(db, at);
  const id = newObjectId('in');
  const currency = String(price.currency);
  const line = await lineOf(db, id, price, at);
  const totals = invoiceTotals([
    { amount: line.amount, discount: 0, behavior: taxBehaviorOf(price) },
  ]);
  await saveObject(db, { ...numbered(customer), currency: customer.currency ?? currency });
  const open = openInvoice({
    id,
    customer,
    currency,
    at,
    billingReason: 'manual',
    parent: null,
    period: { start: at, end: at },
    lines: [line],
    totals,
    balance: { starting: 0, ending: 0 },
    discount: null,
    defaultPaymentMethod: null,
    details: {
      description: invoiceData.description,
      footer: invoiceData.footer,
      custom_fields: invoiceData.custom_fields,
      metadata: invoiceData.metadata,
      rendering: invoiceData.rendering_options && {
        amount_tax_display: invoiceData.rendering_options.amount_tax_display,
        pdf: { page_size: 'auto' },
        template: null,
        template_version: null,
      },
    },
  });
  const invoice = paidInvoice(open, at, true);
  await insertObject(db, INVOICE_TYPE, invoice);
  await recordEvent(db, 'invoice.created', draftOf(open), at);
  await recordEvent(db, 'invoice.finalized', open, at);
  await recordPaymentEvents(db, invoice, 'paid', at);
  return invoice;
}
