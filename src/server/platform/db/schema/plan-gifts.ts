import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './identity';
import { purchases } from './purchases';

/**
 * Gift subscriptions (docs/decisions/054-gift-subscriptions.md): what only a gift of months of
 * a plan has, keyed by its purchase in the ledger (docs/decisions/053-one-time-payments.md),
 * which holds the giver, the price, the payment's state and the card's message. The link's
 * token is made when the gift is delivered and only its SHA-256 is kept; a redeemed gift names
 * the account and the period it granted.
 */
export const planGifts = pgTable(
  'plan_gifts',
  {
    purchaseId: text('purchase_id')
      .primaryKey()
      .references(() => purchases.id),
    /** The catalogue's plan whose price was charged (`monthly` for 1 and 3 months, `yearly` for 12). */
    planKey: text('plan_key').$type<'monthly' | 'yearly'>().notNull(),
    months: integer('months').notNull(),
    /** The recipient's address, trimmed and lower-cased: only an account with it may redeem. */
    recipientEmail: text('recipient_email').notNull(),
    /** When the delivery mail goes (the chosen day at 09:00 JST, or at payment for today). */
    deliverAt: timestamp('deliver_at', { withTimezone: true }).notNull(),
    /** SHA-256 (hex) of the link's token, set when the mail is sent. */
    tokenHash: text('token_hash').unique(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    redeemedBy: text('redeemed_by').references(() => user.id, { onDelete: 'set null' }),
    /**
     * What the redemption granted: a gift period (`subscriptions` row, provider `gift`) or the
     * months added to the reader's paying subscription (its id; `extension`).
     */
    grantKind: text('grant_kind').$type<'period' | 'extension'>(),
    grantSubscriptionId: text('grant_subscription_id'),
    grantStart: timestamp('grant_start', { withTimezone: true }),
    grantEnd: timestamp('grant_end', { withTimezone: true }),
    /** The reminder a week before the end, sent once. */
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    /** A refund after redemption ended the grant then. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('plan_gifts_due_idx')
      .on(t.deliverAt)
      .where(sql`${t.deliveredAt} is null`),
    index('plan_gifts_grant_end_idx')
      .on(t.grantEnd)
      .where(sql`${t.remindedAt} is null`),
  ],
);
