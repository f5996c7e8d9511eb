import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './identity';

/*
 * Profiles (SPEC §3; src/server/features/profiles): a public and a private record, both keyed by the
 * user id and created with the user. Deleting the user deletes both.
 */
export const userPublicProfiles = pgTable('user_public_profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull(),
  avatarUrl: text('avatar_url'),
  occupation: text('occupation').notNull().default(''),
  company: text('company').notNull().default(''),
  interests: text('interests')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** The partner (content id in the `partners` endpoint) the user acts for; '' = none. */
  partnerId: text('partner_id').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const userPrivateProfiles = pgTable('user_private_profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  /** The payment provider's customer id, set once a customer exists (SPEC §3). */
  stripeId: text('stripe_id').unique(),
  newsletter: boolean('newsletter').notNull().default(false),
  termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
  /**
   * The members' item whose paywall started the reader's path to sign-up (first-party
   * attribution, src/server/features/attribution/attribution.ts); null when none was kept (no paywall met,
   * Do Not Track, Global Privacy Control or the analytics opt-out).
   */
  sourceEndpoint: text('source_endpoint'),
  sourceContentId: text('source_content_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Subscriptions under the public profile (SPEC §3), from the payment provider or granted by
 * staff (`complimentary`). A deleted account leaves its records, anonymised (user_id null):
 * they are payment records.
 */
/** A discount on a provider plan as its coupon sets it (yen; times as ISO strings). */
export type SubscriptionDiscount = {
  coupon: string;
  percentOff: number | null;
  amountOff: number | null;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths: number | null;
  start: string;
  /** A repeating coupon's end (the provider's `end`); null for once and forever. */
  end: string | null;
};

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => userPublicProfiles.userId, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    /** The provider's statuses: active, trialing, canceled, past_due, … */
    status: text('status').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    planName: text('plan_name').notNull(),
    productId: text('product_id'),
    priceId: text('price_id'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    /** The provider's customer (for provider plans). */
    customerId: text('customer_id'),
    /** The provider's latest invoice of the plan: the unpaid one while past_due. */
    latestInvoiceId: text('latest_invoice_id'),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** The price's amount (yen, tax included) and period, for the business report's MRR. */
    amount: integer('amount'),
    interval: text('interval'),
    intervalCount: integer('interval_count'),
    /**
     * The provider's discounts on the plan (an offer's coupon, from `discounts` with its
     * `source.coupon`), kept so that MRR counts what the reader is charged.
     */
    discounts: jsonb('discounts').$type<SubscriptionDiscount[]>().notNull().default([]),
    /**
     * The members' item whose paywall started the path to this plan (the checkout's
     * subscription metadata `source`, src/server/features/attribution/attribution.ts), or null.
     */
    sourceEndpoint: text('source_endpoint'),
    sourceContentId: text('source_content_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_user_idx').on(t.userId, t.createdAt.desc())],
);
