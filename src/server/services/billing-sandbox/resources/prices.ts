import 'server-only';
import { invalidRequest, missingParam } from '../errors';
import {
  type FieldFilter,
  type SandboxObject,
  insertObjectIfNew,
  isUniqueViolation,
  listObjects,
  newObjectId,
  nowSeconds,
  saveObject,
  requireObject,
} from '../object-store';
import { requireProduct } from './products';
import { type Route, type RouteContext, filtersWithActive, resourceRoutes } from './route';

/**
 * /v1/prices. Amounts are in the currency's smallest unit as on Stripe; for JPY, a
 * zero-decimal currency, that is the yen itself (unit_amount 1100 is ¥1,100).
 * A lookup key names one price at a time: taking a used key needs `transfer_lookup_key`.
 */

const TYPE = 'price';
const INTERVALS = ['day', 'week', 'month', 'year'] as const;
const TAX_BEHAVIORS = ['inclusive', 'exclusive', 'unspecified'] as const;
/** Stripe's longest recurring period is one year. */
const MAX_INTERVAL_COUNT: Record<(typeof INTERVALS)[number], number> = {
  day: 365,
  week: 52,
  month: 12,
  year: 1,
};

function lookupKeyTaken(holderId: string) {
  return invalidRequest(
    `A price (\`${holderId}\`) already uses that lookup key.`,
    'lookup_key',
    'lookup_key_already_exists',
  );
}

async function lookupKeyHolder(context: RouteContext, lookupKey: string) {
  const holders = await listObjects(context.db, TYPE, {
    filters: [{ field: 'lookup_key', in: [lookupKey] }],
    limit: 1,
  });
  return holders.data[0] ?? null;
}

/**
 * Frees the key for `ownerId` when transferring, else refuses a key in use. The unique index
 * on lookup keys settles a race between two requests: the loser gets the same refusal.
 */
async function takeLookupKey(
  context: RouteContext,
  lookupKey: string,
  transfer: boolean,
  ownerId: string,
): Promise<void> {
  const holder = await lookupKeyHolder(context, lookupKey);
  if (!holder || holder.id === ownerId) return;
  if (!transfer) throw lookupKeyTaken(holder.id);
  await saveObject(context.db, { ...holder, lookup_key: null });
}

async function savePrice(
  context: RouteContext,
  price: SandboxObject,
  write: () => Promise<boolean>,
): Promise<void> {
  let written: boolean;
  try {
    written = await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    written = false;
  }
  if (!written) {
    const holder = await lookupKeyHolder(context, String(price.lookup_key));
    throw lookupKeyTaken(holder?.id ?? 'unknown');
  }
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const currency = params.requiredString('currency', 3).toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest('Invalid currency', 'currency');
  const productId = params.string('product', 200);
  if (!productId) throw missingParam('product');
  const unitAmount = params.integer('unit_amount', 0, 99_999_999);
  if (unitAmount === undefined) throw missingParam('unit_amount');
  const recurringParams = params.object('recurring');
  const interval = recurringParams?.oneOf('interval', INTERVALS);
  if (recurringParams && !interval) throw missingParam('recurring[interval]');
  const intervalCount = recurringParams?.integer('interval_count', 1, 365) ?? 1;
  if (interval && intervalCount > MAX_INTERVAL_COUNT[interval]) {
    throw invalidRequest('The maximum billing frequency is one year.', 'recurring[interval_count]');
  }
  const trialDays = recurringParams?.integer('trial_period_days', 1, 730);
  const lookupKey = params.string('lookup_key', 200);
  const transfer = params.boolean('transfer_lookup_key') ?? false;
  const fields = {
    active: params.boolean('active') ?? true,
    nickname: params.string('nickname', 5000) ?? null,
    tax_behavior: params.oneOf('tax_behavior', TAX_BEHAVIORS) ?? 'unspecified',
    metadata: params.metadata() ?? {},
  };
  params.finish(recurringParams);
  await requireProduct(context, productId, 'product');
  const id = newObjectId('price');
  if (lookupKey) await takeLookupKey(context, lookupKey, transfer, id);
  const price: SandboxObject = {
    id,
    object: 'price',
    active: fields.active,
    billing_scheme: 'per_unit',
    created: nowSeconds(),
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: lookupKey ?? null,
    metadata: fields.metadata,
    nickname: fields.nickname,
    product: productId,
    recurring: interval
      ? {
          interval,
          interval_count: intervalCount,
          meter: null,
          trial_period_days: trialDays ?? null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: fields.tax_behavior,
    tiers_mode: null,
    transform_quantity: null,
    type: interval ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  };
  await savePrice(context, price, () => insertObjectIfNew(context.db, TYPE, price));
  return price;
}

async function requirePrice(context: RouteContext): Promise<SandboxObject> {
  return requireObject(context.db, TYPE, context.id ?? '');
}

async function update(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const current = await requirePrice(context);
  const active = params.boolean('active');
  const lookupKey = params.nullableString('lookup_key', 200);
  const transfer = params.boolean('transfer_lookup_key') ?? false;
  const nickname = params.nullableString('nickname', 5000);
  const metadata = params.metadata(current.metadata as Record<string, string>);
  params.finish();
  if (lookupKey) await takeLookupKey(context, lookupKey, transfer, current.id);
  const next: SandboxObject = { ...current };
  if (active !== undefined) next.active = active;
  if (lookupKey !== undefined) next.lookup_key = lookupKey;
  if (nickname !== undefined) next.nickname = nickname;
  if (metadata !== undefined) next.metadata = metadata;
  await savePrice(context, next, async () => {
    await saveObject(context.db, next);
    return true;
  });
  return next;
}

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters = filtersWithActive(params);
  const product = params.string('product', 200);
  if (product) filters.push({ field: 'product', in: [product] });
  const currency = params.string('currency', 3);
  if (currency) filters.push({ field: 'currency', in: [currency.toLowerCase()] });
  const type = params.oneOf('type', ['one_time', 'recurring'] as const);
  if (type) filters.push({ field: 'type', in: [type] });
  const lookupKeys = params.stringArray('lookup_keys', 10);
  if (lookupKeys) filters.push({ field: 'lookup_key', in: lookupKeys });
  return filters;
}

export const priceRoutes: Route[] = resourceRoutes(['prices'], TYPE, {
  create,
  filters: listFilters,
  update,
});
