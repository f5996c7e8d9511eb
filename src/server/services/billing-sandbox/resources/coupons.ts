import 'server-only';
import { invalidRequest } from '../errors';
import {
  type SandboxObject,
  insertObjectIfNew,
  newObjectId,
  nowSeconds,
  requireObject,
  saveObject,
} from '../object-store';
import { type Route, type RouteContext, listRoute } from './route';

/**
 * /v1/coupons: create, retrieve, update (name, metadata), list. A coupon takes `percent_off`
 * or `amount_off` with its `currency` off each invoice it applies to, `once`, `repeating` for
 * `duration_in_months` or `forever`; `redeem_by` and `max_redemptions` bound its redemptions,
 * and `valid` says whether it can still be redeemed (answered as of now, as Stripe does).
 * Discounts and their application to invoices live in cycle/discounts.ts.
 */

export const COUPON_TYPE = 'coupon';
const DURATIONS = ['once', 'repeating', 'forever'] as const;
/** Stripe's bound on a repeating coupon's months (three years). */
const MAX_MONTHS = 36;

export type Coupon = SandboxObject & {
  amount_off: number | null;
  currency: string | null;
  percent_off: number | null;
  duration: (typeof DURATIONS)[number];
  duration_in_months: number | null;
  max_redemptions: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  applies_to?: { products: string[] };
};

/** Whether the coupon can be redeemed at `at`: before redeem_by and under max_redemptions. */
export function couponRedeemable(coupon: Coupon, at: number): boolean {
  if (coupon.redeem_by !== null && at >= coupon.redeem_by) return false;
  if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) {
    return false;
  }
  return true;
}

/** The coupon as Stripe answers it: `valid` as of now. */
function answered(coupon: Coupon): Coupon {
  return { ...coupon, valid: couponRedeemable(coupon, nowSeconds()) };
}

export async function requireCoupon(
  context: Pick<RouteContext, 'db'>,
  id: string,
  param = 'id',
): Promise<Coupon> {
  return (await requireObject(context.db, COUPON_TYPE, id, { param })) as Coupon;
}

/** Stripe's percent_off: a number above 0 and at most 100, two decimals at most. */
function readPercent(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text) || !(value > 0) || value > 100) {
    throw invalidRequest(
      'Invalid percent_off: must be greater than 0 and less than or equal to 100.',
      'percent_off',
    );
  }
  return value;
}

async function create({ db, params }: RouteContext): Promise<SandboxObject> {
  const id = params.objectId('id') ?? newObjectId('').slice(1, 9);
  const percentOff = readPercent(params.string('percent_off', 10));
  const amountOff = params.integer('amount_off', 1, 99_999_999);
  const currency = params.string('currency', 3)?.toLowerCase();
  const duration = params.oneOf('duration', DURATIONS) ?? 'once';
  const months = params.integer('duration_in_months', 1, MAX_MONTHS);
  const name = params.string('name', 40);
  const redeemBy = params.integer('redeem_by', 0, 253_402_300_799);
  const maxRedemptions = params.integer('max_redemptions', 1, 99_999_999);
  const appliesTo = params.object('applies_to');
  const products = appliesTo?.stringArray('products', 100);
  const metadata = params.metadata() ?? {};
  params.finish(appliesTo);

  if ((percentOff === undefined) === (amountOff === undefined)) {
    throw invalidRequest('You must pass exactly one of percent_off or amount_off.');
  }
  if (amountOff !== undefined && !currency) {
    throw invalidRequest('You must pass currency when passing amount_off.', 'currency');
  }
  if (percentOff !== undefined && currency) {
    throw invalidRequest('You may only pass currency with amount_off.', 'currency');
  }
  if (duration === 'repeating' && months === undefined) {
    throw invalidRequest(
      'You must specify duration_in_months when duration is repeating.',
      'duration_in_months',
    );
  }
  if (duration !== 'repeating' && months !== undefined) {
    throw invalidRequest(
      'You can only specify duration_in_months when duration is repeating.',
      'duration_in_months',
    );
  }
  const created = nowSeconds();
  if (redeemBy !== undefined && redeemBy <= created) {
    throw invalidRequest('Invalid redeem_by: must be in the future.', 'redeem_by');
  }
  for (const [index, product] of (products ?? []).entries()) {
    await requireObject(db, 'product', product, { param: `applies_to[products][${index}]` });
  }
  const coupon: Coupon = {
    id,
    object: 'coupon',
    amount_off: amountOff ?? null,
    ...(products ? { applies_to: { products } } : {}),
    created,
    currency: currency ?? null,
    duration,
    duration_in_months: months ?? null,
    livemode: false,
    max_redemptions: maxRedemptions ?? null,
    metadata,
    name: name ?? null,
    percent_off: percentOff ?? null,
    redeem_by: redeemBy ?? null,
    times_redeemed: 0,
    valid: true,
  };
  if (!(await insertObjectIfNew(db, COUPON_TYPE, coupon))) {
    throw invalidRequest('Coupon already exists.', 'id', 'resource_already_exists');
  }
  return coupon;
}

async function retrieve(context: RouteContext): Promise<SandboxObject> {
  context.params.finish();
  return answered(await requireCoupon(context, context.id ?? ''));
}

/** Only the name and metadata change, as on Stripe: the terms are fixed once made. */
async function update(context: RouteContext): Promise<SandboxObject> {
  const { db, params } = context;
  const current = await requireCoupon(context, context.id ?? '');
  const name = params.nullableString('name', 40);
  const metadata = params.metadata((current.metadata as Record<string, string>) ?? {});
  params.finish();
  const next: Coupon = { ...current };
  if (name !== undefined) next.name = name;
  if (metadata !== undefined) next.metadata = metadata;
  await saveObject(db, next);
  return answered(next);
}

const list = listRoute(['coupons'], COUPON_TYPE);

export const couponRoutes: Route[] = [
  {
    ...list,
    handle: async (context) => {
      const answer = await list.handle(context);
      return { ...answer, data: answer.data.map((coupon) => answered(coupon as Coupon)) };
    },
  },
  { method: 'GET', pattern: ['coupons', ':id'], handle: retrieve },
  { method: 'POST', pattern: ['coupons'], handle: create },
  { method: 'POST', pattern: ['coupons', ':id'], handle: update },
];
