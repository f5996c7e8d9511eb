import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Security-relevant actions (sign-in, password and e-mail changes, role and plan changes). */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** `user:<id>`, `cli:<os user>`, `system`, … */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    /** What the action was done to, e.g. `user:<id>`. */
    target: text('target'),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_occurred_at_idx').on(t.occurredAt),
    index('audit_events_target_idx').on(t.target),
    // The filter's choices, read one name at a time (audit-query.ts, auditActions).
    index('audit_events_action_idx').on(t.action),
  ],
);

/**
 * Mail (src/server/platform/mail). Without SMTP_URL every message is kept here and read by staff at
 * /admin/mail; with it, messages are sent and only their envelope is kept.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** What the mail is for: `verify-email`, `reset-password`, … */
    kind: text('kind').notNull(),
    /** `stored` (no SMTP), `sent` or `failed`. */
    status: text('status').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    error: text('error'),
    /** Set by the template: the mail carries a link with a token. Its body is for admins only. */
    secret: boolean('secret').notNull().default(false),
    /** The account the token is for: its links are removed once one of them is used. */
    tokenUserId: text('token_user_id'),
    /** When the token stops working: the link is removed from the body then at the latest. */
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    /** When the link was removed from the kept body (used or expired). */
    linkRemovedAt: timestamp('link_removed_at', { withTimezone: true }),
    /** The body with its link replaced by a note, rendered at send time: replaces the body on removal. */
    redactedText: text('redacted_text'),
    redactedHtml: text('redacted_html'),
  },
  (t) => [
    index('mail_outbox_created_idx').on(t.createdAt.desc()),
    // Only rows whose link is still in the body: the sweeps on each read and write stay cheap.
    index('mail_outbox_live_links_idx')
      .on(t.linkExpiresAt)
      .where(sql`${t.linkRemovedAt} IS NULL AND ${t.linkExpiresAt} IS NOT NULL`),
    index('mail_outbox_live_links_user_idx')
      .on(t.tokenUserId)
      .where(sql`${t.linkRemovedAt} IS NULL AND ${t.linkExpiresAt} IS NOT NULL`),
  ],
);

/** Fixed-window counters of the request rate limits (src/server/platform/rate-limit), shared by instances. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    bucket: text('bucket').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);
