import 'server-only';
import { INVOICE_TYPE, TAX_RATE_TYPE } from '../cycle/calendar';
import { payOpenInvoice } from '../cycle/subscriptions';
import { resourceMissing } from '../errors';
import { listAnswer } from '../list';
import { type FieldFilter, type SandboxObject, findObject, requireObject } from '../object-store';
import { cardDeclined } from './payment-methods';
import type { Route, RouteContext } from './route';

/**
 * /v1/invoices (retrieve, list, pay) and /v1/tax_rates/:id. Invoices are made by the billing
 * cycle (cycle/invoices.ts), never through the API; each holds its lines in full.
 */

const STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;

async function requireInvoice(context: RouteContext): Promise<SandboxObject> {
  return requireObject(context.db, INVOICE_TYPE, context.id ?? '');
}

async function list(context: RouteContext) {
  const { params } = context;
  const filters: FieldFilter[] = [];
  const customer = params.string('customer', 200);
  if (customer) filters.push({ field: 'customer', in: [customer] });
  const subscription = params.string('subscription', 200);
  if (subscription) {
    filters.push({ field: 'parent.subscription_details.subscription', in: [subscription] });
  }
  const status = params.oneOf('status', STATUSES);
  if (status) filters.push({ field: 'status', in: [status] });
  const answer = await listAnswer(
    context.db,
    INVOICE_TYPE,
    'invoice',
    params,
    context.path,
    filters,
  );
  params.finish();
  return answer;
}

/**
 * Charges an open invoice now. A declined card is Stripe's 402 card error, answered after the
 * failed attempt (attempt_count, invoice.payment_failed) has been committed, as on Stripe.
 */
async function pay(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const paymentMethod = params.string('payment_method', 200);
  // Every sandbox charge is made without the customer present; the flag changes nothing.
  params.boolean('off_session');
  params.finish();
  const { invoice, paid } = await payOpenInvoice(context.db, context.id ?? '', { paymentMethod });
  if (!paid) throw cardDeclined();
  return invoice;
}

export const invoiceRoutes: Route[] = [
  { method: 'GET', pattern: ['invoices'], handle: list },
  { method: 'POST', pattern: ['invoices', ':id', 'pay'], handle: pay },
  {
    method: 'GET',
    pattern: ['invoices', ':id'],
    handle: async (context) => {
      context.params.finish();
      return requireInvoice(context);
    },
  },
  {
    method: 'GET',
    pattern: ['tax_rates', ':id'],
    handle: async (context) => {
      context.params.finish();
      const id = context.id ?? '';
      const taxRate = await findObject(context.db, TAX_RATE_TYPE, id);
      if (!taxRate) throw resourceMissing('tax_rate', id);
      return taxRate;
    },
  },
];
