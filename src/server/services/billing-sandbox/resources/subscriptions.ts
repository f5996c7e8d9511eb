import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { LIVE_STATUSES, SUBSCRIPTION_TYPE, customerNow, itemOf } from '../cycle/calendar';
import {
  cancelSubscriptionNow,
  changeSubscription,
  startSubscription,
} from '../cycle/subscriptions';
import { invalidRequest, missingParam, resourceMissing } from '../errors';
import { type FieldFilter, type SandboxObject, requireObject } from '../object-store';
import type { Params } from '../params';
import { requireAttachedPaymentMethod } from './payment-methods';
import { type Route, type RouteContext, resourceRoutes } from './route';

/**
 * /v1/subscriptions: create (`payment_behavior`, `default_payment_method`), retrieve, update
 * (cancel at period end, resume, change price with or without prorations, change the card,
 * move `trial_end` with `proration_behavior=none`),
 * cancel now, list. The rules live in cycle/subscriptions.ts; this file reads Stripe's parameters.
 * Every write runs in one transaction that holds the test clock's row (if any) and the
 * subscription's, so it cannot interleave with a clock advance.
 */

const STATUSES = [
  'active',
  'all',
  'canceled',
  'ended',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'paused',
  'trialing',
  'unpaid',
] as const;
const PRORATION_BEHAVIORS = ['create_prorations', 'none', 'always_invoice'] as const;
const PAYMENT_BEHAVIORS = [
  'allow_incomplete',
  'default_incomplete',
  'error_if_incomplete',
  'pending_if_incomplete',
] as const;
/** The most seats one item takes (the sandbox's bound; Stripe's is far higher). */
const MAX_QUANTITY = 100_000;
/** Statuses after which only metadata may change. */
const ENDED_STATUSES = ['canceled', 'incomplete_expired'];

async function requireCustomer(context: RouteContext, id: string): Promise<SandboxObject> {
  return requireObject(context.db, 'customer', id, { param: 'customer' });
}

async function requireRecurringPrice(
  context: RouteContext,
  id: string,
  param: string,
): Promise<SandboxObject> {
  const price = await requireObject(context.db, 'price', id, { param });
  if (price.type !== 'recurring') {
    throw invalidRequest(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      param,
    );
  }
  if (price.active !== true) {
    throw invalidRequest(
      `The price specified is inactive. This field only accepts active prices.`,
      param,
    );
  }
  return price;
}

/** `items[0][price]` (and `items[0][id]` on update): the sandbox keeps one item per subscription. */
function readItem(params: Params, withId: boolean) {
  const items = params.object('items');
  if (!items) return { items };
  const first = items.object('0');
  if (!first) throw missingParam('items[0]');
  const id = withId ? first.string('id', 200) : undefined;
  const price = first.string('price', 200);
  const quantity = first.integer('quantity', 1, MAX_QUANTITY);
  return { items, first, id, price, quantity };
}

/** A `default_payment_method` given must be a card attached to the subscription's customer. */
async function checkDefaultPaymentMethod(
  db: Db,
  id: string | null | undefined,
  customerId: string,
): Promise<void> {
  if (id) await requireAttachedPaymentMethod(db, id, customerId, 'default_payment_method');
}

export async function requireSubscription(context: RouteContext): Promise<SandboxObject> {
  return requireObject(context.db, SUBSCRIPTION_TYPE, context.id ?? '');
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const customerId = params.requiredString('customer', 200);
  const item = readItem(params, false);
  const trialDays = params.integer('trial_period_days', 0, 730);
  const metadata = params.metadata() ?? {};
  const cancelAtPeriodEnd = params.boolean('cancel_at_period_end') ?? false;
  const paymentBehavior = params.oneOf('payment_behavior', PAYMENT_BEHAVIORS);
  const defaultPaymentMethod = params.string('default_payment_method', 200);
  const collection = readCollection(params);
  params.finish(item.items, item.first, ...collection.nested);
  if (!item.price) throw missingParam('items[0][price]');
  if (paymentBehavior === 'pending_if_incomplete') {
    throw invalidRequest(
      'payment_behavior=pending_if_incomplete can only be used when updating a subscription.',
      'payment_behavior',
    );
  }
  const priceId = item.price;
  return context.db.transaction(async (db) => {
    const scoped = { ...context, db };
    const customer = await requireCustomer(scoped, customerId);
    const price = await requireRecurringPrice(scoped, priceId, 'items[0][price]');
    const currency = typeof customer.currency === 'string' ? customer.currency : null;
    if (currency && currency !== price.currency) {
      throw invalidRequest(
        `You cannot combine currencies on a single customer. This customer has had a subscription or payment in ${currency}, but you are trying to pay in ${String(price.currency)}.`,
        'items[0][price]',
      );
    }
    await checkDefaultPaymentMethod(db, defaultPaymentMethod, customer.id);
    return startSubscription(db, {
      customer,
      price,
      trialDays: trialDays || undefined,
      metadata,
      cancelAtPeriodEnd,
      defaultPaymentMethod: defaultPaymentMethod ?? null,
      paymentBehavior: paymentBehavior,
      quantity: item.quantity,
      sendInvoice: collection.sendInvoice,
    });
  });
}

function canceledRefusal(id: string) {
  return invalidRequest(
    `A canceled subscription can only update its cancellation_details and metadata. (${id})`,
  );
}

async function update(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const cancelAtPeriodEnd = params.boolean('cancel_at_period_end');
  const item = readItem(params, true);
  const prorationBehavior = params.oneOf('proration_behavior', PRORATION_BEHAVIORS);
  const paymentBehavior = params.oneOf('payment_behavior', PAYMENT_BEHAVIORS);
  const defaultPaymentMethod = params.nullableString('default_payment_method', 200);
  const trialEnd = readTrialEnd(params);
  const found = await requireSubscription(context);
  const metadata = params.metadata(found.metadata as Record<string, string>);
  params.finish(item.items, item.first);
  // An update's invoice is always kept, failed or not (`past_due`): Stripe's default.
  if (paymentBehavior !== undefined && paymentBehavior !== 'allow_incomplete') {
    throw invalidRequest(
      'The billing sandbox updates subscriptions with payment_behavior=allow_incomplete only.',
      'payment_behavior',
    );
  }
  return context.db.transaction(async (db) => {
    const scoped = { ...context, db };
    const customer = await requireCustomer(scoped, String(found.customer));
    const at = await customerNow(db, customer, true);
    const current = await requireObject(db, SUBSCRIPTION_TYPE, found.id, { lock: true });
    const changesBilling =
      cancelAtPeriodEnd !== undefined || item.items !== undefined || trialEnd !== undefined;
    if (typeof trialEnd === 'number' && trialEnd <= at) {
      throw invalidRequest(
        'Invalid timestamp: must be an integer Unix timestamp in the future.',
        'trial_end',
      );
    }
    if (trialEnd !== undefined && (item.items || prorationBehavior !== 'none')) {
      throw invalidRequest(
        'The billing sandbox moves trial_end alone, with proration_behavior=none.',
        'trial_end',
      );
    }
    const changesMoreThanMetadata = changesBilling || defaultPaymentMethod !== undefined;
    if (ENDED_STATUSES.includes(String(current.status)) && changesMoreThanMetadata) {
      throw canceledRefusal(current.id);
    }
    if (current.status === 'incomplete' && changesBilling) {
      throw invalidRequest(
        'You cannot update a subscription in `incomplete` status in a way that results in a new invoice or invoice items. Only metadata and default_payment_method can be updated, or the subscription can be canceled.',
      );
    }
    await checkDefaultPaymentMethod(db, defaultPaymentMethod, customer.id);
    let price: SandboxObject | undefined;
    if (item.items) {
      const itemId = itemOf(current).id;
      if (item.id !== undefined && item.id !== itemId) {
        throw resourceMissing('subscription_item', item.id, 'items[0][id]');
      }
      if (item.id === undefined && (item.price !== undefined || item.quantity !== undefined)) {
        throw invalidRequest(
          'The billing sandbox keeps one item per subscription: change its price or quantity with items[0][id] and items[0][price] or items[0][quantity].',
          'items[0][id]',
        );
      }
      if (item.price) price = await requireRecurringPrice(scoped, item.price, 'items[0][price]');
      if (price && price.currency !== current.currency) {
        throw invalidRequest(
          'The price currency must match the subscription currency.',
          'items[0][price]',
        );
      }
    }
    return changeSubscription(db, current, customer, at, {
      cancelAtPeriodEnd,
      price,
      quantity: item.quantity,
      prorationBehavior: prorationBehavior ?? 'create_prorations',
      metadata,
      defaultPaymentMethod,
      trialEnd,
    });
  });
}

const PAYMENT_METHOD_TYPES = ['customer_balance'] as const;

/**
 * `collection_method`, `days_until_due` and `payment_settings` on create. `send_invoice` needs
 * `days_until_due` (and only it takes one), as on Stripe; its invoices are paid by bank
 * transfer (`customer_balance` with `jp_bank_transfer`), the one manual method the sandbox has.
 */
function readCollection(params: Params) {
  const method = params.oneOf('collection_method', [
    'charge_automatically',
    'send_invoice',
  ] as const);
  const daysUntilDue = params.integer('days_until_due', 0, 365);
  const settings = params.object('payment_settings');
  const types = settings?.stringArray('payment_method_types', 10);
  const options = settings?.object('payment_method_options');
  const balance = options?.object('customer_balance');
  const fundingType = balance?.oneOf('funding_type', ['bank_transfer'] as const);
  const transfer = balance?.object('bank_transfer');
  const transferType = transfer?.oneOf('type', ['jp_bank_transfer'] as const);
  const nested = [settings, options, balance, transfer];
  if (method !== 'send_invoice') {
    if (daysUntilDue !== undefined) {
      throw invalidRequest(
        'Cannot set days_until_due when collection_method is charge_automatically.',
        'days_until_due',
      );
    }
    if (settings) {
      throw invalidRequest(
        'The billing sandbox takes payment_settings with collection_method=send_invoice only.',
        'payment_settings',
      );
    }
    return { nested, sendInvoice: undefined };
  }
  if (daysUntilDue === undefined) missingParamFor('days_until_due');
  for (const type of types ?? []) {
    if (!(PAYMENT_METHOD_TYPES as readonly string[]).includes(type)) {
      throw invalidRequest(
        `The billing sandbox pays sent invoices by bank transfer only (customer_balance), not ${type}.`,
        'payment_settings[payment_method_types]',
      );
    }
  }
  return {
    nested,
    sendInvoice: {
      daysUntilDue: daysUntilDue ?? 0,
      paymentSettings: {
        payment_method_types: types ?? null,
        payment_method_options: balance
          ? {
              customer_balance: {
                bank_transfer: { type: transferType ?? 'jp_bank_transfer' },
                funding_type: fundingType ?? 'bank_transfer',
              },
            }
          : null,
      },
    },
  };
}

function missingParamFor(param: string): never {
  throw invalidRequest(
    `Missing required param: ${param}. It is required when collection_method is send_invoice.`,
    param,
    'parameter_missing',
  );
}

/** `trial_end`: a Unix time or `now`. */
function readTrialEnd(params: Params): number | 'now' | undefined {
  const raw = params.string('trial_end', 20);
  if (raw === undefined || raw === 'now') return raw;
  if (!/^\d{1,12}$/.test(raw)) {
    throw invalidRequest(
      'Invalid trial_end: must be an integer Unix timestamp or `now`.',
      'trial_end',
    );
  }
  return Number(raw);
}

async function cancel(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const invoiceNow = params.boolean('invoice_now');
  const prorate = params.boolean('prorate');
  params.finish();
  if (invoiceNow || prorate) {
    throw invalidRequest(
      'The billing sandbox cancels without a final invoice: invoice_now and prorate must be false.',
      invoiceNow ? 'invoice_now' : 'prorate',
    );
  }
  const found = await requireSubscription(context);
  return context.db.transaction(async (db) => {
    const customer = await requireCustomer({ ...context, db }, String(found.customer));
    const at = await customerNow(db, customer, true);
    const current = await requireObject(db, SUBSCRIPTION_TYPE, found.id, { lock: true });
    if (ENDED_STATUSES.includes(String(current.status))) throw canceledRefusal(current.id);
    return cancelSubscriptionNow(db, current, at);
  });
}

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters: FieldFilter[] = [];
  const customer = params.string('customer', 200);
  if (customer) filters.push({ field: 'customer', in: [customer] });
  const price = params.string('price', 200);
  if (price) filters.push({ field: 'items.data.0.price.id', in: [price] });
  const testClock = params.string('test_clock', 200);
  if (testClock) filters.push({ field: 'test_clock', in: [testClock] });
  // As on Stripe: subscriptions on test clocks are listed only when asked for by customer or clock.
  else if (!customer) filters.push({ field: 'test_clock', isNull: true });
  const status = params.oneOf('status', STATUSES);
  if (status === 'ended') filters.push({ field: 'status', in: ['canceled', 'incomplete_expired'] });
  else if (status === undefined) {
    filters.push({ field: 'status', in: [...LIVE_STATUSES, 'incomplete', 'unpaid', 'paused'] });
  } else if (status !== 'all') filters.push({ field: 'status', in: [status] });
  return filters;
}

export const subscriptionRoutes: Route[] = resourceRoutes(['subscriptions'], SUBSCRIPTION_TYPE, {
  create,
  filters: listFilters,
  update,
  remove: cancel,
});
