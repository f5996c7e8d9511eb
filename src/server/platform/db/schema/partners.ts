import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './identity';

/**
 * Inquiries from companies (src/server/features/inquiries): `job-posting` from /jobs/about/contact,
 * `partner-application` from /biz/request. Staff follow each through its state (new,
 * in-progress, done). Fields a kind does not ask for are null.
 */
export const partnerInquiries = pgTable(
  'partner_inquiries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    kind: text('kind', { enum: ['job-posting', 'partner-application'] }).notNull(),
    company: text('company').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    website: text('website'),
    companySize: text('company_size'),
    plan: text('plan'),
    message: text('message'),
    state: text('state', { enum: ['new', 'in-progress', 'done'] })
      .notNull()
      .default('new'),
    /** The signed-in sender, if any (forgotten when the account is deleted). */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('partner_inquiries_created_idx').on(t.createdAt.desc())],
);

/**
 * A partner company's contract (src/server/features/partners): its public profile (name, description,
 * logo, website) is the `partners` item of the content service with the same id; what the
 * programme sells it lives here. Members are users whose public profile names the partner.
 */
export const partnerContracts = pgTable('partner_contracts', {
  partnerId: text('partner_id').primaryKey(),
  /** Japanese calendar days (YYYY-MM-DD), the end day included; no end: until one is set. */
  contractStart: text('contract_start'),
  contractEnd: text('contract_end'),
  /** Listings in review or published at once; null: no limit. */
  listingQuota: integer('listing_quota'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Job listings written by partners (src/server/features/partners/jobs): the working copy and its review. The id
 * is the `jobs` item's content id; approving writes the working copy there, published, and
 * /jobs reads it from the content service like any item. Views are the page views of
 * /jobs/{id} (page_views); apply clicks are counted in job_apply_clicks.
 */
export const jobListings = pgTable(
  'job_listings',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    state: text('state', { enum: ['draft', 'in_review', 'returned', 'published'] })
      .notNull()
      .default('draft'),
    /** The partner's working copy (src/server/features/partners/jobs/listing-input.ts ListingFields). */
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull(),
    /** The fields as staff last approved or returned them: what a resubmission is compared to. */
    reviewedFields: jsonb('reviewed_fields').$type<Record<string, unknown>>(),
    /** Staff's comment when returning the listing; cleared when it is submitted again. */
    reviewComment: text('review_comment'),
    /** When an approved version was first written to the content service; null: never. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The closing day (YYYY-MM-DD, Japan) of the version on /jobs; null: none is. */
    liveUntil: text('live_until'),
    /** Bumped by every change, so a stale form cannot overwrite a newer one. */
    revision: integer('revision').notNull().default(1),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: text('reviewed_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('job_listings_partner_idx').on(t.partnerId, t.updatedAt.desc()),
    index('job_listings_state_idx').on(t.state, t.submittedAt),
  ],
);

/** One row per click on a listing's apply button (/jobs/{id}/apply): no IP, no user. */
export const jobApplyClicks = pgTable(
  'job_apply_clicks',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    contentId: text('content_id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_apply_clicks_content_idx').on(t.contentId)],
);
