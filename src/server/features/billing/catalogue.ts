import 'server-only';
import { asc, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { keptRead } from '@/server/platform/db/kept-read';
import { billingPlans } from '@/server/platform/db/schema';
import { billingProvider } from './provider';
import { PLAN_KEYS, type PlanKey, isPlanKey } from '@/lib/billing/plans';

/**
 * The plan catalogue: the site's two paid plans and the provider's prices behind them. The
 * amounts, names and intervals are the provider's (synced into billing_plans at start, by the
 * admin CLI and on price/product webhooks), so /service-plans, the confirmation screen and the
 * 特商法 page always show what the provider will charge. On the sandbox, the prices are made
 * on first sync.
 */

export type Plan = {
  key: PlanKey;
  priceId: string;
  productId: string;
  name: string;
  /** Yen, tax included. */
  amount: number;
  currency: string;
  interval: 'month' | 'year';
  intervalCount: number;
  active: boolean;
};

/** Where each plan's price is found on the provider: a price id or a lookup key. */
function priceReference(key: PlanKey): string {
  const { STRIPE_PRICE_MONTHLY, STRIPE_PRICE_YEARLY } = env();
  return key === 'monthly' ? STRIPE_PRICE_MONTHLY : STRIPE_PRICE_YEARLY;
}

/** What the sandbox sells on a fresh machine (tax-inclusive yen). */
const SANDBOX_PLANS: Record<PlanKey, { name: string; amount: number; interval: 'month' | 'year' }> =
  {
    monthly: { name: 'メンバーシップ 月額プラン', amount: 1100, interval: 'month' },
    yearly: { name: 'メンバーシップ 年額プラン', amount: 11000, interval: 'year' },
  };

async function findPrice(stripe: Stripe, reference: string): Promise<Stripe.Price | null> {
  if (reference.startsWith('price_')) {
    try {
      return await stripe.prices.retrieve(reference, { expand: ['product'] });
    } catch (error) {
      if ((error as { code?: string }).code === 'resource_missing') return null;
      throw error;
    }
  }
  const found = await stripe.prices.list({
    lookup_keys: [reference],
    active: true,
    expand: ['data.product'],
    limit: 1,
  });
  return found.data[0] ?? null;
}

/** Makes a missing plan on the sandbox (never on Stripe: its catalogue is the operator's). */
async function createSandboxPrice(stripe: Stripe, key: PlanKey): Promise<Stripe.Price> {
  const plan = SANDBOX_PLANS[key];
  const reference = priceReference(key);
  const product = await stripe.products.create(
    { name: plan.name, metadata: { plan: key } },
    { idempotencyKey: `catalogue-product-${key}-${reference}` },
  );
  const price = await stripe.prices.create(
    {
      product: product.id,
      currency: 'jpy',
      unit_amount: plan.amount,
      recurring: { interval: plan.interval },
      tax_behavior: 'inclusive',
      lookup_key: reference.startsWith('price_') ? undefined : reference,
      metadata: { plan: key },
    },
    { idempotencyKey: `catalogue-price-${key}-${reference}` },
  );
  return { ...price, product };
}

function toPlan(key: PlanKey, price: Stripe.Price): Plan {
  const product = price.product;
  if (typeof product === 'string' || product.deleted) {
    throw new Error(`billing: the product of ${price.id} could not be read`);
  }
  const interval: string | undefined = price.recurring?.interval;
  if (interval !== 'month' && interval !== 'year') {
    throw new Error(`billing: the ${key} price ${price.id} must be monthly or yearly`);
  }
  if (price.unit_amount === null) throw new Error(`billing: ${price.id} has no unit amount`);
  return {
    key,
    priceId: price.id,
    productId: product.id,
    name: product.name,
    amount: price.unit_amount,
    currency: price.currency,
    interval,
    intervalCount: price.recurring?.interval_count ?? 1,
    active: price.active && product.active,
  };
}

/** Reads the plans' prices from the provider and stores them; answers the plans. */
export async function syncCatalogue(db: Db): Promise<Plan[]> {
  const { stripe, kind } = await billingProvider(db);
  const plans: Plan[] = [];
  for (const key of PLAN_KEYS) {
    let price = await findPrice(stripe, priceReference(key));
    if (!price && kind === 'sandbox') price = await createSandboxPrice(stripe, key);
    if (!price) {
      throw new Error(
        `billing: no price "${priceReference(key)}" on Stripe for the ${key} plan (STRIPE_PRICE_${key.toUpperCase()})`,
      );
    }
    plans.push(toPlan(key, price));
  }
  const now = new Date();
  for (const plan of plans) {
    const values = { ...plan, syncedAt: now };
    await db
      .insert(billingPlans)
      .values(values)
      .onConflictDoUpdate({ target: billingPlans.key, set: values });
  }
  shownPlans.forget(db);
  return plans;
}

/** The stored catalogue, monthly first; synced from the provider if it was never synced. */
export async function listPlans(db: Db): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(billingPlans)
    .orderBy(asc(sql`${billingPlans.key} <> 'monthly'`));
  const plans = rows.filter((row) => isPlanKey(row.key)) as Plan[];
  if (plans.length === PLAN_KEYS.length) return plans;
  return syncCatalogue(db);
}

/**
 * The catalogue as a page shows it (a paywall's plans on every visitor's render), read at most
 * once per 10 s per process: a checkout, its final confirmation and a payment read listPlans.
 */
export const shownPlans = keptRead('shown-plans', 10_000, listPlans);

export async function findPlan(db: Db, key: PlanKey): Promise<Plan | null> {
  return (await listPlans(db)).find((plan) => plan.key === key) ?? null;
}

export async function planByPrice(db: Db, priceId: string): Promise<Plan | null> {
  return (await listPlans(db)).find((plan) => plan.priceId === priceId) ?? null;
}

/**
 * The catalogue's plan that staff named for a complimentary plan: its key (monthly, yearly) or
 * its exact name. A typed name that is not a plan would show readers a plan the site never sold.
 */
export function choosePlan(plans: readonly Plan[], value: string): Plan | null {
  const wanted = value.trim();
  return plans.find((plan) => plan.key === wanted || plan.name === wanted) ?? null;
}

/** The refusal for a plan that is not in the catalogue, listing what may be chosen. */
export function unknownPlanMessage(plans: readonly Plan[], value: string): string {
  const choices = plans.map((plan) => `${plan.key}（${plan.name}）`).join('、');
  return `プラン「${value.trim()}」はプランの一覧にありません。次のどれかを選んでください：${choices}`;
}
