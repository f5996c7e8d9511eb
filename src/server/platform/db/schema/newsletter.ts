import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './identity';

/*
 * Newsletters (src/server/features/newsletter, docs/decisions/ on the queue's guarantees). A send is one
 * post mailed to one segment; it fans out into one letter row per reader, which the senders of
 * every instance claim (FOR UPDATE SKIP LOCKED + a lease) and deliver at most once.
 */
export const newsletterSends = pgTable(
  'newsletter_sends',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** The post (`posts` endpoint) the letter is made from. */
    contentId: text('content_id').notNull(),
    /** all | free | paid */
    segment: text('segment').notNull(),
    /** scheduled (waits for the post's publication) | queued | sending | done | cancelled */
    status: text('status').notNull(),
    /** Queued by the scheduler when it publishes the post, not now. */
    withPublication: boolean('with_publication').notNull().default(false),
    /** The staff member who asked (null: the CLI). */
    requestedBy: text('requested_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * A subject line test (docs/decisions/063-newsletter-analytics.md): 2–3 subjects, null for
     * none (the post's title). The sample's letters carry a variant; the rest wait `held`
     * until the winner is chosen at test_ends_at.
     */
    subjects: text('subjects').array(),
    /** Percent of the readers in the sample (split evenly between the subjects). */
    testSamplePercent: integer('test_sample_percent'),
    testWaitMinutes: integer('test_wait_minutes'),
    /** clicks (opens break a tie) | opens */
    testMetric: text('test_metric'),
    testEndsAt: timestamp('test_ends_at', { withTimezone: true }),
    /** The index of the subject the rest received; null until chosen. */
    winner: integer('winner'),
  },
  (t) => [
    index('newsletter_sends_created_idx').on(t.createdAt.desc()),
    index('newsletter_sends_scheduled_idx')
      .on(t.contentId)
      .where(sql`status = 'scheduled'`),
  ],
);

export const newsletterLetters = pgTable(
  'newsletter_letters',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    sendId: uuid('send_id')
      .notNull()
      .references(() => newsletterSends.id, { onDelete: 'cascade' }),
    /** A deleted account takes its letters (and their address) with it; none is sent after. */
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The address at queue time (what the letter went to). */
    email: text('email').notNull(),
    /** paid | free: which version of the post the reader gets, fixed at send time. */
    audience: text('audience').notNull(),
    /**
     * queued | sending (committed just before the SMTP transaction) | sent | failed |
     * uncertain (a sender died mid-transaction: never sent again, staff see the count).
     */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The sender instance holding the row, until claimed_until. */
    claimedBy: text('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    /** Opens of the post from this letter's links (src/server/features/newsletter/opens.ts). */
    openedAt: timestamp('opened_at', { withTimezone: true }),
    openCount: integer('open_count').notNull().default(0),
    /** The subject line test's variant of a sample letter (an index into the send's subjects). */
    variant: integer('variant'),
    /**
     * The letter's tracked links, in order, written when it is built: the click redirect sends
     * only to one of these (src/server/features/newsletter/clicks.ts). Null: an untracked letter.
     */
    links: text('links').array(),
    clickedAt: timestamp('clicked_at', { withTimezone: true }),
    clickCount: integer('click_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('newsletter_letters_send_user_idx').on(t.sendId, t.userId),
    index('newsletter_letters_send_status_idx').on(t.sendId, t.status),
    // What the senders look at: only rows still to send, oldest due first.
    index('newsletter_letters_user_opened_idx').on(t.userId, t.openedAt.desc()),
    index('newsletter_letters_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status IN ('queued', 'sending')`),
  ],
);

/** Addresses no newsletter goes to (bounces, complaints, staff). Lower-cased. */
export const newsletterSuppressions = pgTable('newsletter_suppressions', {
  email: text('email').primaryKey(),
  /** bounce | complaint | manual */
  reason: text('reason').notNull(),
  note: text('note').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** `user:<id>`, `cli:<os user>`, `system`. */
  createdBy: text('created_by').notNull(),
});

/** Append-only record of each opt-in and opt-out (特定電子メール法: when and how). */
export const newsletterConsents = pgTable(
  'newsletter_consents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The record of consent outlives the account (the law asks it kept), without the link. */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    /** subscribed | unsubscribed | confirmed */
    action: text('action').notNull(),
    /** sign-up | account | footer | one-click | unsubscribe-page | staff */
    method: text('method').notNull(),
    /** The page the reader acted on (a path), when there was one. */
    page: text('page'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ipHash: text('ip_hash'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('newsletter_consents_user_idx').on(t.userId, t.at.desc()),
    index('newsletter_consents_email_idx').on(t.email, t.at.desc()),
  ],
);

/**
 * Readers who turned the letters' tracking off in their account: no pixel, no redirect, plain
 * links (docs/decisions/063-newsletter-analytics.md).
 */
export const newsletterTrackingOptOuts = pgTable('newsletter_tracking_opt_outs', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
