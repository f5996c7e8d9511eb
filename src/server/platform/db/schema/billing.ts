import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './identity';
import { userPublicProfiles } from './profiles';

/**
 * The plan catalogue (src/server/features/billing/catalogue.ts): the provider's prices of the site's
 * plans, synced from it, so that pages never wait for the provider and always show the
 * amounts it will charge.
 */
export const billingPlans = pgTable('billing_plans', {
  /** The site's name for the plan: `monthly` or `yearly`. */
  key: text('key').primaryKey(),
  priceId: text('price_id').notNull(),
  productId: text('product_id').notNull(),
  name: text('name').notNull(),
  /** In the currency's smallest unit (yen), tax included. */
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  interval: text('interval').notNull(),
  intervalCount: integer('interval_count').notNull(),
  active: boolean('active').notNull(),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Webhook events by the provider's event id: claimed ('applying') by the one delivery that
 * applies it, whichever instance it reached, then 'applied', so that a redelivery, even a
 * simultaneous one, is never applied twice (src/server/features/billing/webhook.ts).
 */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  state: text('state').$type<'applying' | 'applied'>().notNull().default('applied'),
  /** When the current claim was taken (the first delivery, or a takeover of a stale claim). */
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Readers' invoices as the provider last reported them: the receipts. A deleted account
 * leaves them, anonymised: they are payment records.
 */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => userPublicProfiles.userId, { onDelete: 'set null' }),
    customerId: text('customer_id').notNull(),
    subscriptionId: text('subscription_id'),
    number: text('number'),
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    total: integer('total').notNull(),
    /** Consumption tax included in the total. */
    tax: integer('tax').notNull(),
    lines: jsonb('lines').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_invoices_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * Billing mails sent and one-time notices shown, one row per occasion (`receipt:in_…`,
 * `plan-ended-notice:sub_…`), so each happens once.
 */
export const billingNotifications = pgTable('billing_notifications', {
  key: text('key').primaryKey(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Offers redeemed (docs/decisions/028-offers.md, its 2026-11-29 amendment): a row per
 * subscription a completed checkout started with a promotion code, written when the completion
 * is applied (the webhook or the success page). A failed or abandoned checkout writes none, so
 * only completed ones count against the code's cap; one that completed after the cap was
 * reached is kept, not counted (`counted` false), and honoured.
 */
export const offerRedemptions = pgTable(
  'offer_redemptions',
  {
    subscriptionId: text('subscription_id').primaryKey(),
    promotionCodeId: text('promotion_code_id').notNull(),
    counted: boolean('counted').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('offer_redemptions_code_idx').on(t.promotionCodeId)],
);

/**
 * Checkouts paid by a visitor with an e-mail address only (src/server/features/billing/
 * guest-checkout.ts, docs/decisions/039-reader-path.md): recorded when the provider reports the
 * session complete, by its webhook or the success route, and applied to nobody until claimed —
 * by the account the checkout made for a new address, or by the signed-in owner of the address
 * (its e-mail confirmed). Claimed once: `claimed_at` is set once and never cleared; `claimed_by`
 * goes null when that account is deleted, the checkout staying claimed. A claimed row also tells
 * whose the checkout's customer is (customers.ts), when that is not the account's own.
 */
export const guestCheckouts = pgTable(
  'guest_checkouts',
  {
    /** The provider's checkout session (cs_…). */
    sessionId: text('session_id').primaryKey(),
    /** The address the visitor typed, lower case: the session's customer_email. */
    email: text('email').notNull(),
    customerId: text('customer_id').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    plan: text('plan').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    claimedBy: text('claimed_by').references(() => user.id, { onDelete: 'set null' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (t) => [
    index('guest_checkouts_email_idx').on(t.email),
    index('guest_checkouts_customer_idx').on(t.customerId),
    index('guest_checkouts_claimed_by_idx').on(t.claimedBy),
  ],
);
