import 'server-only';
import { INVOICE_TYPE, TAX_RATE_TYPE } from '../cycle/calendar';
import { payOpenInvoice } from '../cycle/subscriptions';
import type { FieldFilter, SandboxObject } from '../object-store';
import { cardError } from '../errors';
import { cardDeclined } from './payment-methods';
import { type Route, type RouteContext, resourceRoutes, retrieveRoute } from './route';

/**
 * /v1/invoices (retrieve, list, pay) and /v1/tax_rates/:id. Invoices are made by the billing
 * cycle (cycle/invoices.ts), never through the API; each holds its lines in full.
 */

const STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters: FieldFilter[] = [];
  const customer = params.string('customer', 200);
  if (customer) filters.push({ field: 'customer', in: [customer] });
  const subscription = params.string('subscription', 200);
  if (subscription) {
    filters.push({ field: 'parent.subscription_details.subscription', in: [subscription] });
  }
  const status = params.oneOf('status', STATUSES);
  if (status) filters.push({ field: 'status', in: [status] });
  return filters;
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
  const { invoice, paid, outcome } = await payOpenInvoice(context.db, context.id ?? '', {
    paymentMethod,
  });
  if (outcome === 'requires_action') {
    // Stripe's answer when the card asks for 3-D Secure: the customer must authenticate.
    throw cardError(
      'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice. For more details see: https://stripe.com/docs/billing/subscriptions/overview#requires-action',
      'invoice_payment_intent_requires_action',
    );
  }
  if (!paid) throw cardDeclined();
  return invoice;
}

export const invoiceRoutes: Route[] = [
  ...resourceRoutes(['invoices'], INVOICE_TYPE, { filters: listFilters }),
  { method: 'POST', pattern: ['invoices', ':id', 'pay'], handle: pay },
  retrieveRoute(['tax_rates', ':id'], TAX_RATE_TYPE),
];
