import 'server-only';
import { randomBytes } from 'node:crypto';
import { PROMOTION_CODE_TYPE, type PromotionCode } from '../cycle/discounts';
import { invalidRequest, missingParam } from '../errors';
import {
  type FieldFilter,
  type SandboxObject,
  insertObject,
  listObjects,
  newObjectId,
  nowSeconds,
  requireObject,
  saveObject,
} from '../object-store';
import { requireCoupon } from './coupons';
import { type Route, type RouteContext, filtersWithActive, resourceRoutes } from './route';

/**
 * /v1/promotion_codes in the pinned version's shape (`promotion: { type: 'coupon', coupon }`):
 * create, retrieve, update (active, metadata), list (with `code`, matched regardless of case,
 * `active`, `coupon`, `customer`). A code is unique, regardless of case, among the active ones;
 * its expiry and cap may not exceed its coupon's. Redemption is checked in cycle/discounts.ts.
 */

const CODE = /^[A-Za-z0-9-]{1,500}$/;
const MAX_TIME = 253_402_300_799;

function codeTaken(code: string) {
  return invalidRequest(
    `An active promotion code with \`code: ${code}\` already exists.`,
    'code',
    'resource_already_exists',
  );
}

async function activeHolder(context: RouteContext, code: string, except?: string) {
  const found = await listObjects(context.db, PROMOTION_CODE_TYPE, {
    filters: [
      { field: 'code', in: [code], caseInsensitive: true },
      { field: 'active', in: ['true'] },
    ],
    limit: 2,
  });
  return found.data.find((promotion) => promotion.id !== except) ?? null;
}

/** Stripe's generated codes: eight upper-case letters and digits. */
function generatedCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(8)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { db, params } = context;
  const promotion = params.object('promotion');
  const type = promotion?.oneOf('type', ['coupon'] as const);
  const couponId = promotion?.string('coupon', 200);
  const code = params.string('code', 500) ?? generatedCode();
  const active = params.boolean('active') ?? true;
  const customer = params.string('customer', 200);
  const expiresAt = params.integer('expires_at', 0, MAX_TIME);
  const maxRedemptions = params.integer('max_redemptions', 1, 99_999_999);
  const restrictionParams = params.object('restrictions');
  const firstTime = restrictionParams?.boolean('first_time_transaction') ?? false;
  const minimumAmount = restrictionParams?.integer('minimum_amount', 1, 99_999_999);
  const minimumCurrency = restrictionParams?.string('minimum_amount_currency', 3)?.toLowerCase();
  const metadata = params.metadata() ?? {};
  params.finish(promotion, restrictionParams);

  if (!promotion) throw missingParam('promotion');
  if (!type) throw missingParam('promotion[type]');
  if (!couponId) throw missingParam('promotion[coupon]');
  if (!CODE.test(code)) {
    throw invalidRequest(
      'Invalid code: only letters (a-z, A-Z), digits (0-9) and dashes (-) are allowed.',
      'code',
    );
  }
  if ((minimumAmount === undefined) !== (minimumCurrency === undefined)) {
    throw invalidRequest(
      'You must pass minimum_amount and minimum_amount_currency together.',
      'restrictions[minimum_amount_currency]',
    );
  }
  const coupon = await requireCoupon(context, couponId, 'promotion[coupon]');
  if (customer) await requireObject(db, 'customer', customer, { param: 'customer' });
  const created = nowSeconds();
  if (expiresAt !== undefined && expiresAt <= created) {
    throw invalidRequest('Invalid expires_at: must be in the future.', 'expires_at');
  }
  if (expiresAt !== undefined && coupon.redeem_by !== null && expiresAt > coupon.redeem_by) {
    throw invalidRequest(
      "The promotion code's `expires_at` may not be later than the coupon's `redeem_by`.",
      'expires_at',
    );
  }
  if (
    maxRedemptions !== undefined &&
    coupon.max_redemptions !== null &&
    maxRedemptions > coupon.max_redemptions
  ) {
    throw invalidRequest(
      "The promotion code's `max_redemptions` may not be greater than the coupon's `max_redemptions`.",
      'max_redemptions',
    );
  }
  if (active && (await activeHolder(context, code))) throw codeTaken(code);
  const promotionCode: PromotionCode = {
    id: newObjectId('promo'),
    object: 'promotion_code',
    active,
    code,
    created,
    customer: customer ?? null,
    customer_account: null,
    expires_at: expiresAt ?? null,
    livemode: false,
    max_redemptions: maxRedemptions ?? null,
    metadata,
    promotion: { type: 'coupon', coupon: coupon.id },
    restrictions: {
      first_time_transaction: firstTime,
      minimum_amount: minimumAmount ?? null,
      minimum_amount_currency: minimumCurrency ?? null,
    },
    times_redeemed: 0,
  };
  await insertObject(db, PROMOTION_CODE_TYPE, promotionCode);
  return promotionCode;
}

async function update(context: RouteContext): Promise<SandboxObject> {
  const { db, params } = context;
  const current = (await requireObject(db, PROMOTION_CODE_TYPE, context.id ?? '')) as PromotionCode;
  const active = params.boolean('active');
  const metadata = params.metadata((current.metadata as Record<string, string>) ?? {});
  params.finish();
  const next: PromotionCode = { ...current };
  if (active === true && !current.active) {
    if (await activeHolder(context, current.code, current.id)) throw codeTaken(current.code);
  }
  if (active !== undefined) next.active = active;
  if (metadata !== undefined) next.metadata = metadata;
  await saveObject(db, next);
  return next;
}

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters = filtersWithActive(params);
  const code = params.string('code', 500);
  if (code) filters.push({ field: 'code', in: [code], caseInsensitive: true });
  const coupon = params.string('coupon', 200);
  if (coupon) filters.push({ field: 'promotion.coupon', in: [coupon] });
  const customer = params.string('customer', 200);
  if (customer) filters.push({ field: 'customer', in: [customer] });
  return filters;
}

export const promotionCodeRoutes: Route[] = resourceRoutes(
  ['promotion_codes'],
  PROMOTION_CODE_TYPE,
  { create, update, filters: listFilters },
);
