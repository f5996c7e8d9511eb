import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { invalidRequest } from './errors';
import { type SandboxObject, findObject } from './object-store';

/**
 * `expand[]`: fields that hold another object's id answer the object itself instead. Only the
 * fields listed here expand (as on Stripe, any other is refused); paths nest up to 4 levels
 * and pass through embedded objects and lists (`items.data.price.product`), and an array of
 * ids expands each (`discounts.source.coupon`). Fields of an embedded hash without an `object`
 * of its own are listed under their path (`invoice.parent.subscription_details`).
 */
const EXPANDABLE: Record<string, Record<string, string>> = {
  price: { product: 'product' },
  customer: { test_clock: 'test_helpers.test_clock' },
  subscription: {
    customer: 'customer',
    discounts: 'discount',
    latest_invoice: 'invoice',
    test_clock: 'test_helpers.test_clock',
  },
  subscription_item: { price: 'price' },
  invoice: { customer: 'customer', discounts: 'discount', test_clock: 'test_helpers.test_clock' },
  discount: { customer: 'customer', promotion_code: 'promotion_code' },
  'discount.source': { coupon: 'coupon' },
  'invoice.parent.subscription_details': { subscription: 'subscription' },
  invoiceitem: { customer: 'customer' },
  'promotion_code.promotion': { coupon: 'coupon' },
  promotion_code: { customer: 'customer' },
  'checkout.session': {
    customer: 'customer',
    invoice: 'invoice',
    payment_intent: 'payment_intent',
    subscription: 'subscription',
  },
  payment_intent: {
    customer: 'customer',
    latest_charge: 'charge',
    payment_method: 'payment_method',
  },
  charge: {
    customer: 'customer',
    payment_intent: 'payment_intent',
    payment_method: 'payment_method',
  },
  refund: { charge: 'charge', payment_intent: 'payment_intent' },
};

const MAX_EXPAND_DEPTH = 4;

type Json = Record<string, unknown>;

function cannotExpand(path: string) {
  return invalidRequest(`This property cannot be expanded (${path}).`, 'expand');
}

/** Whether the list names fields under this embedded hash's path. */
function leadsToExpandable(path: string): boolean {
  return Object.keys(EXPANDABLE).some((key) => key === path || key.startsWith(`${path}.`));
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeKeyOf(value: Json, parentKey: string, field: string): string {
  return typeof value.object === 'string' ? value.object : `${parentKey}.${field}`;
}

async function expandAt(
  db: Db,
  object: Json,
  typeKey: string,
  segments: string[],
  fullPath: string,
): Promise<Json> {
  const [field, ...rest] = segments;
  if (!field) throw cannotExpand(fullPath);
  const value = object[field];
  const target = EXPANDABLE[typeKey]?.[field];
  // A null embedded hash on the way (a one-off invoice's `parent`) expands to null, as on Stripe.
  if (value === null && rest.length > 0 && leadsToExpandable(`${typeKey}.${field}`)) return object;
  if (!target && (rest.length === 0 || !isRecord(value))) throw cannotExpand(fullPath);
  const expandOne = async (one: unknown) => {
    let found = one;
    if (target && typeof found === 'string') found = (await findObject(db, target, found)) ?? found;
    if (rest.length > 0 && isRecord(found)) {
      found = await descend(db, found, typeKeyOf(found, typeKey, field), rest, fullPath);
    }
    return found;
  };
  const expanded =
    target && Array.isArray(value)
      ? await Promise.all(value.map(expandOne))
      : await expandOne(value);
  return { ...object, [field]: expanded };
}

async function descend(
  db: Db,
  value: Json,
  typeKey: string,
  segments: string[],
  fullPath: string,
): Promise<Json> {
  if (value.object !== 'list' || !Array.isArray(value.data)) {
    return expandAt(db, value, typeKey, segments, fullPath);
  }
  const [head, ...rest] = segments;
  if (head !== 'data' || rest.length === 0) throw cannotExpand(fullPath);
  const data = await Promise.all(
    value.data.map((item: unknown) =>
      isRecord(item) ? expandAt(db, item, typeKeyOf(item, typeKey, 'data'), rest, fullPath) : item,
    ),
  );
  return { ...value, data };
}

export async function expandObject(
  db: Db,
  object: SandboxObject,
  paths: string[],
): Promise<SandboxObject> {
  let result = object;
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length > MAX_EXPAND_DEPTH) throw cannotExpand(path);
    result = (await expandAt(db, result, result.object, segments, path)) as SandboxObject;
  }
  return result;
}

/** A list expands its items through `data.<field>`. */
export async function expandListItems(
  db: Db,
  items: SandboxObject[],
  paths: string[],
): Promise<SandboxObject[]> {
  const itemPaths = paths.map((path) => {
    if (!path.startsWith('data.')) throw cannotExpand(path);
    return path.slice('data.'.length);
  });
  if (itemPaths.length === 0) return items;
  return Promise.all(items.map((item) => expandObject(db, item, itemPaths)));
}
