import 'server-only';
import type Stripe from 'stripe';
import type { Db } from '@/server/platform/db/client';
import { billingProvider } from '@/server/features/billing';
import type {
  BankAccountView,
  DocumentLineView,
  InvoiceDocumentView,
  InvoiceListEntry,
  QuoteView,
  TaxSummaryView,
} from './views';

/**
 * What the printable invoice (適格請求書) and quote (見積書) show, read from the provider as plain
 * data for src/components/invoice-billing: the lines (seats × unit price), the tax per rate as
 * the provider rounded it (once per invoice and rate), the due date, the transfer details of
 * the customer's virtual account, and what its cash balance already holds toward the invoice.
 */

const iso = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;

/** The product's name in Stripe's line descriptions: `3 × 法人プラン (at ¥11,000 / month)`. */
function productOf(description: string | null): string {
  const text = (description ?? '').trim();
  const proration = /^(?:Unused|Remaining) time on (?:\d+ × )?(.+?) after .+$/.exec(text);
  if (proration?.[1]) return proration[1];
  return /^(?:\d+ × )?(.+?)(?: \(at .*\))?$/.exec(text)?.[1] ?? text;
}

function lineOf(line: Stripe.InvoiceLineItem): DocumentLineView {
  const description = line.description ?? '';
  const proration = line.parent?.subscription_item_details?.proration ?? false;
  const quantity = line.quantity ?? 1;
  const unit = Number(line.pricing?.unit_amount_decimal ?? NaN);
  return {
    product: productOf(description),
    kind: !proration ? 'period' : line.amount < 0 ? 'credit' : 'prorated',
    quantity,
    unitAmount: !proration && Number.isFinite(unit) ? unit : null,
    amount: line.amount,
    periodStart: iso(line.period.start),
    periodEnd: iso(line.period.end),
  };
}

async function taxesOf(stripe: Stripe, invoice: Stripe.Invoice): Promise<TaxSummaryView[]> {
  const rates = new Map<string, number>();
  const summary: TaxSummaryView[] = [];
  for (const entry of invoice.total_taxes ?? []) {
    const rateId = entry.tax_rate_details?.tax_rate;
    if (!rateId) continue;
    if (!rates.has(rateId)) {
      rates.set(rateId, (await stripe.taxRates.retrieve(rateId)).percentage);
    }
    const rate = rates.get(rateId) ?? 0;
    const found = summary.find((row) => row.rate === rate);
    const taxable = entry.taxable_amount ?? 0;
    if (found) {
      found.taxable += taxable;
      found.tax += entry.amount;
    } else summary.push({ rate, taxable, tax: entry.amount });
  }
  return summary;
}

const STATUSES: readonly InvoiceDocumentView['status'][] = [
  'draft',
  'open',
  'paid',
  'uncollectible',
  'void',
];

function statusOf(status: string | null): InvoiceDocumentView['status'] {
  return STATUSES.find((known) => known === status) ?? 'open';
}

/** The customer's virtual account in Zengin format (its funding instructions). */
export async function bankAccountOf(stripe: Stripe, customerId: string): Promise<BankAccountView> {
  const instructions = await stripe.customers.createFundingInstructions(customerId, {
    currency: 'jpy',
    funding_type: 'bank_transfer',
    bank_transfer: { type: 'jp_bank_transfer' },
  });
  const zengin = instructions.bank_transfer.financial_addresses.find(
    (address) => address.type === 'zengin',
  )?.zengin;
  if (!zengin) throw new Error(`invoice billing: no Zengin account for ${customerId}`);
  return {
    bankName: zengin.bank_name ?? '',
    bankCode: zengin.bank_code ?? '',
    branchName: zengin.branch_name ?? '',
    branchCode: zengin.branch_code ?? '',
    accountType: zengin.account_type === 'toza' ? '当座' : '普通',
    accountNumber: zengin.account_number ?? '',
    accountHolderName: zengin.account_holder_name ?? '',
  };
}

/**
 * The invoice as the printable page shows it, or null when it is not a sent invoice of that
 * customer (`customerId`: whoever may see it, checked by the caller; anything else is not found).
 */
export async function invoiceDocument(
  db: Db,
  invoiceId: string,
  customerId: string | null,
): Promise<InvoiceDocumentView | null> {
  const { stripe } = await billingProvider(db);
  let invoice: Stripe.Invoice;
  try {
    invoice = await stripe.invoices.retrieve(invoiceId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null;
    throw error;
  }
  const owner = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
  if (!owner || (customerId !== null && owner !== customerId)) return null;
  if (invoice.collection_method !== 'send_invoice' || invoice.status === 'draft') return null;
  const open = invoice.status === 'open';
  const held = open ? ((await stripe.customers.retrieveCashBalance(owner)).available?.jpy ?? 0) : 0;
  return {
    id: invoice.id,
    number: invoice.number ?? invoice.id,
    status: statusOf(invoice.status),
    addressee: invoice.customer_name ?? '',
    issuedAt: iso(invoice.status_transitions.finalized_at ?? invoice.created) ?? '',
    dueDate: iso(invoice.due_date),
    paidAt: iso(invoice.status_transitions.paid_at),
    lines: invoice.lines.data.map(lineOf),
    taxes: await taxesOf(stripe, invoice),
    total: invoice.total,
    amountDue: invoice.amount_due,
    amountRemaining: invoice.amount_remaining,
    // A transfer short of the invoice waits in the cash balance (Stripe never part-pays one).
    received: Math.min(held, invoice.amount_remaining),
    bankAccount: invoice.status === 'void' ? null : await bankAccountOf(stripe, owner),
  };
}

/** A customer's sent invoices, newest first, for its admins' list (each links to its page). */
export async function customerInvoices(db: Db, customerId: string): Promise<InvoiceListEntry[]> {
  const { stripe } = await billingProvider(db);
  const page = await stripe.invoices.list({ customer: customerId, limit: 50 });
  return page.data
    .filter((invoice) => invoice.collection_method === 'send_invoice' && invoice.status !== 'draft')
    .map((invoice) => ({
      id: invoice.id,
      number: invoice.number ?? invoice.id,
      status: statusOf(invoice.status),
      total: invoice.total,
      issuedAt: iso(invoice.status_transitions.finalized_at ?? invoice.created) ?? '',
      dueDate: iso(invoice.due_date),
      paidAt: iso(invoice.status_transitions.paid_at),
    }));
}

/** How long a quote is valid for. */
export const QUOTE_VALID_DAYS = 30;

/**
 * A quote (見積書) for `seats` seats of a recurring yen price, for one period, before anything
 * is ordered; null when the price is not one that can be ordered (unknown, inactive, not yen).
 */
export async function quoteDocument(
  db: Db,
  priceId: string,
  seats: number,
  now: Date,
): Promise<QuoteView | null> {
  const { stripe } = await billingProvider(db);
  let price: Stripe.Price;
  try {
    price = await stripe.prices.retrieve(priceId, { expand: ['product'] });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null;
    throw error;
  }
  const product = price.product as Stripe.Product;
  if (!price.active || !price.recurring || price.currency !== 'jpy') return null;
  const unit = price.unit_amount ?? 0;
  const total = unit * seats;
  const exclusive = price.tax_behavior === 'exclusive';
  const tax = exclusive ? Math.floor(total / 10) : Math.floor(total / 11);
  return {
    product: product.name,
    interval: price.recurring.interval === 'year' ? 'year' : 'month',
    seats,
    unitAmount: unit,
    // Prices are tax-inclusive unless marked exclusive (as the sandbox and the site take them).
    total: exclusive ? total + tax : total,
    taxes: [{ rate: 10, taxable: exclusive ? total : total - tax, tax }],
    issuedAt: now.toISOString(),
    validUntil: new Date(now.getTime() + QUOTE_VALID_DAYS * 86_400_000).toISOString(),
  };
}
