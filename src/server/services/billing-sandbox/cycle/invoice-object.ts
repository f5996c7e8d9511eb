import 'server-only';
import type { SandboxObject } from '../object-store';
import type { Metadata } from '../params';
import { num } from './calendar';
import { transitionsOf } from './payments';
import { type TaxBehavior, taxEntry, taxOf } from './tax';

/**
 * The invoice object every invoice of the sandbox is made as — a subscription's
 * (invoices.ts) or a one-time payment's post-payment invoice (post-payment-invoices.ts): its
 * totals with tax, its number in the customer's sequence, its finalized and draft shapes.
 */

/** A line's amount, its discount and its tax behaviour: what an invoice's totals add up. */
export type TotalsLine = { amount: number; discount: number; behavior: TaxBehavior };

export type InvoiceTotals = ReturnType<typeof invoiceTotals>;

/**
 * What an invoice's lines add up to. Tax is rounded once per invoice and rate, as Japan's
 * qualified invoices require, on the amounts after discounts.
 */
export function invoiceTotals(lines: TotalsLine[]) {
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const totalDiscount = lines.reduce((sum, line) => sum + line.discount, 0);
  const totalTaxes = (['inclusive', 'exclusive'] as const).flatMap((behavior) => {
    const charged = lines.filter((line) => line.behavior === behavior);
    if (charged.length === 0) return [];
    const amount = charged.reduce((sum, line) => sum + line.amount - line.discount, 0);
    const { taxability_reason: _reason, ...entry } = taxEntry(amount, behavior);
    return [entry];
  });
  const taxOfBehavior = (behavior: TaxBehavior) =>
    totalTaxes
      .filter((entry) => entry.tax_behavior === behavior)
      .reduce((sum, entry) => sum + entry.amount, 0);
  const inclusiveSubtotal = lines
    .filter((line) => line.behavior === 'inclusive')
    .reduce((sum, line) => sum + line.amount, 0);
  const inclusiveTax = taxOfBehavior('inclusive');
  const exclusiveTax = taxOfBehavior('exclusive');
  const total = subtotal - totalDiscount + exclusiveTax;
  return {
    subtotal,
    totalDiscount,
    totalTaxes,
    total,
    subtotalExcludingTax: subtotal - taxOf(inclusiveSubtotal, 'inclusive'),
    totalExcludingTax: total - inclusiveTax - exclusiveTax,
  };
}

/** The customer's next invoice number: its prefix and sequence, as Stripe numbers invoices. */
export function nextInvoiceNumber(customer: SandboxObject): string {
  const sequence = num(customer, 'next_invoice_sequence');
  return `${String(customer.invoice_prefix)}-${String(sequence).padStart(4, '0')}`;
}

/** The customer after an invoice took its number: the sequence moves on by one. */
export function numbered(customer: SandboxObject): SandboxObject {
  return { ...customer, next_invoice_sequence: num(customer, 'next_invoice_sequence') + 1 };
}

/** What sets one finalized invoice apart; every other field is the same on all of them. */
export type InvoiceFields = {
  id: string;
  /** The customer as it was before the invoice took its number. */
  customer: SandboxObject;
  currency: string;
  at: number;
  billingReason: string;
  parent: Record<string, unknown> | null;
  period: { start: number; end: number };
  lines: Record<string, unknown>[];
  totals: InvoiceTotals;
  balance: { starting: number; ending: number };
  /** The discount the invoice's lines take something off with. */
  discount: string | null;
  defaultPaymentMethod: unknown;
  /** A send_invoice subscription's invoice: its due date and the payment methods it accepts. */
  collection?: InvoiceCollection | null;
  /** What the invoice says beyond its lines (post-payment invoices: `invoice_data`). */
  details?: {
    description: string | null;
    footer: string | null;
    custom_fields: { name: string; value: string }[] | null;
    metadata: Metadata;
    rendering: Record<string, unknown> | null;
  };
};

export type InvoiceCollection = {
  method: 'send_invoice';
  dueDate: number;
  paymentSettings: Record<string, unknown>;
};

/** A finalized (`open`) invoice in the pinned version's shape. */
export function openInvoice(fields: InvoiceFields): SandboxObject {
  const { id, customer, at, totals } = fields;
  const amountDue = Math.max(0, totals.total + fields.balance.starting);
  const discounted = fields.discount !== null && totals.totalDiscount > 0;
  return {
    id,
    object: 'invoice',
    account_country: 'JP',
    account_name: null,
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: {
      disabled_reason: null,
      enabled: false,
      liability: null,
      provider: null,
      status: null,
    },
    automatically_finalizes_at: null,
    billing_reason: fields.billingReason,
    collection_method: fields.collection?.method ?? 'charge_automatically',
    created: at,
    currency: fields.currency,
    custom_fields: fields.details?.custom_fields ?? null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: customer.phone,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: fields.defaultPaymentMethod ?? null,
    default_source: null,
    default_tax_rates: [],
    description: fields.details?.description ?? null,
    discounts: discounted ? [fields.discount] : [],
    due_date: fields.collection?.dueDate ?? null,
    effective_at: at,
    ending_balance: fields.balance.ending,
    footer: fields.details?.footer ?? null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      data: fields.lines,
      has_more: false,
      total_count: fields.lines.length,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: fields.details?.metadata ?? {},
    next_payment_attempt: null,
    number: nextInvoiceNumber(customer),
    on_behalf_of: null,
    parent: fields.parent,
    payment_settings: {
      default_mandate: null,
      payment_method_options: null,
      payment_method_types: null,
      ...fields.collection?.paymentSettings,
    },
    period_end: fields.period.end,
    period_start: fields.period.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: fields.details?.rendering ?? null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: fields.balance.starting,
    statement_descriptor: null,
    status: 'open',
    status_transitions: {
      finalized_at: at,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: totals.subtotal,
    subtotal_excluding_tax: totals.subtotalExcludingTax,
    test_clock: customer.test_clock,
    total: totals.total,
    total_discount_amounts: discounted
      ? [{ amount: totals.totalDiscount, discount: fields.discount }]
      : [],
    total_excluding_tax: totals.totalExcludingTax,
    total_pretax_credit_amounts: [],
    total_taxes: totals.totalTaxes,
    webhooks_delivered_at: at,
  };
}

/** The invoice as `invoice.created` shows it: a draft, not yet numbered or finalized. */
export function draftOf(open: SandboxObject): SandboxObject {
  return {
    ...open,
    status: 'draft',
    number: null,
    effective_at: null,
    ending_balance: null,
    status_transitions: { ...transitionsOf(open), finalized_at: null },
  };
}
