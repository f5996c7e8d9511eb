import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from './identity';

/**
 * One-time payments, one row each (docs/decisions/053-one-time-payments.md): written `pending`
 * with the server's price before the provider's Checkout Session is made, then moved only by
 * the provider's events (src/server/features/billing/purchase-events.ts): `paid`, `expired`
 * (a konbini voucher unpaid, an abandoned session), `failed`, and `paid` → `refunded`. A
 * deleted account leaves its rows, anonymised: they are payment records.
 */
export const purchases = pgTable(
  'purchases',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    /** `post` (a single article), `tip` (for a post) or `gift-plan` (months of a plan given). */
    kind: text('kind').$type<'post' | 'tip' | 'gift-plan'>().notNull(),
    /** What a post purchase is for: the post itself, bound to its creation (as a gift is). */
    endpoint: text('endpoint'),
    contentId: text('content_id'),
    contentCreatedAt: timestamp('content_created_at', { withTimezone: true }),
    /** What was bought, as the confirmation screen named it (the post's title then). */
    title: text('title').notNull(),
    /** The payer's words to the editors (a tip's message, a gift's card), as given. */
    message: text('message'),
    /** Yen, tax included, and the consumption tax in it. */
    amount: integer('amount').notNull(),
    tax: integer('tax').notNull(),
    method: text('method').$type<'card' | 'konbini' | 'paypay'>().notNull(),
    customerId: text('customer_id').notNull(),
    sessionId: text('session_id').unique(),
    paymentIntentId: text('payment_intent_id').unique(),
    state: text('state').$type<'pending' | 'paid' | 'expired' | 'failed' | 'refunded'>().notNull(),
    /** A konbini voucher: the provider's hosted page and its deadline. */
    voucherUrl: text('voucher_url'),
    voucherExpiresAt: timestamp('voucher_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    index('purchases_user_idx').on(t.userId, t.createdAt.desc()),
    // One live purchase (waiting or paid) of a post per reader: a second is refused.
    uniqueIndex('purchases_one_live_post_idx')
      .on(t.userId, t.endpoint, t.contentId)
      .where(sql`${t.state} in ('pending', 'paid') and ${t.kind} = 'post'`),
  ],
);
