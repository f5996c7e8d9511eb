import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The one schema of the app. Domain modules add their tables here; `npm run db:generate`
 * writes the SQL migration into drizzle/. Only SQL that PostgreSQL 15 and PGlite (18) both
 * accept may be used.
 */

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
  ],
);

/** Content items of the built-in content service (src/server/services/cms). Object endpoints use id ''. */
export const cmsContents = pgTable(
  'cms_contents',
  {
    endpoint: text('endpoint').notNull(),
    id: text('id').notNull(),
    /** PUBLISH | DRAFT | PUBLISH_AND_DRAFT | CLOSED, as microCMS names them. */
    status: text('status').notNull(),
    /** The published version; null until first published. */
    data: jsonb('data').$type<Record<string, unknown>>(),
    /** The unpublished version, if any, readable with its draft key. */
    draftData: jsonb('draft_data').$type<Record<string, unknown>>(),
    draftKey: text('draft_key'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    revisedAt: timestamp('revised_at', { withTimezone: true, precision: 3 }),
    /** Normalised plain text of the published version, for `q` (see src/server/features/search). */
    searchText: text('search_text').notNull().default(''),
    /** Search tokens of searchText (src/server/services/cms/search/tokenize.ts). */
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The same for the open part only: what the access policy shows a reader without full
     * access (title, description, leads). The site search matches there for such readers.
     */
    openText: text('open_text').notNull().default(''),
    openTokens: text('open_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which derivation of the open part the row holds; a stale row is reindexed, never matched. */
    searchVersion: text('search_version').notNull().default(''),
    /** When the working copy is to be published by itself (src/server/cms/console/schedule.ts). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, precision: 3 }),
    /** Who wrote last: `user:<id>` from the console, `key:<id>` from the content API. */
    updatedBy: text('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.endpoint, t.id] }),
    uniqueIndex('cms_contents_draft_key_idx').on(t.draftKey),
    index('cms_contents_created_idx').on(t.endpoint, t.createdAt.desc(), t.id.desc()),
    index('cms_contents_published_idx').on(t.endpoint, t.publishedAt.desc(), t.id.desc()),
    index('cms_contents_search_tokens_idx').using('gin', t.searchTokens),
    index('cms_contents_open_tokens_idx').using('gin', t.openTokens),
    // `equals` filters compile to containment (data @> {...}), which this index serves.
    index('cms_contents_data_idx').using('gin', t.data.op('jsonb_path_ops')),
    index('cms_contents_search_text_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('cms_contents_scheduled_idx')
      .on(t.scheduledAt)
      .where(sql`scheduled_at IS NOT NULL`),
  ],
);

/**
 * Each content item's history: the working copy after every change, who made it and how.
 * An editor's autosaves within a few minutes fold into one version (src/server/services/cms/versions.ts).
 */
export const cmsVersions = pgTable(
  'cms_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    /** The working copy after the change (null: nothing left, e.g. deleted). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    /** The item's status after the change (PUBLISH, DRAFT, …). */
    status: text('status').notNull(),
    /** create, save, autosave, publish, schedule, unschedule, unpublish, restore, api. */
    action: text('action').notNull(),
    /** `user:<id>`, `key:<id>` or `system` (scheduled publishing). */
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('cms_versions_item_idx').on(t.endpoint, t.contentId, t.id.desc())],
);

/**
 * A contributor's item (src/lib/access/console-permissions.ts): whose it is and where its
 * review stands, as partners' job listings have it. Items staff create have no row.
 */
export const cmsSubmissions = pgTable(
  'cms_submissions',
  {
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
    state: text('state', { enum: ['draft', 'in_review', 'returned', 'published'] })
      .notNull()
      .default('draft'),
    /** The editor's comment when returning it; cleared when it is submitted again. */
    reviewComment: text('review_comment'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: text('reviewed_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.endpoint, t.contentId] }),
    // Deleting the item deletes its submission.
    foreignKey({
      columns: [t.endpoint, t.contentId],
      foreignColumns: [cmsContents.endpoint, cmsContents.id],
    }).onDelete('cascade'),
    index('cms_submissions_author_idx').on(t.authorId),
    index('cms_submissions_state_idx').on(t.state),
  ],
);

/**
 * Old ids of renamed items (src/server/services/cms/redirects.ts): their public URLs answer 301 to the
 * item's current id. A chain is collapsed when the item is renamed again, and a row goes as soon
 * as an item is published under its old id (that item wins; a draft is refused it) or the item
 * it points to is deleted.
 */
export const cmsRedirects = pgTable(
  'cms_redirects',
  {
    endpoint: text('endpoint').notNull(),
    fromId: text('from_id').notNull(),
    toId: text('to_id').notNull(),
    /** `user:<id>` who renamed the item. */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.endpoint, t.fromId] }),
    index('cms_redirects_to_idx').on(t.endpoint, t.toId),
  ],
);

/**
 * Who has which item open in the console's editor right now (src/server/features/console/presence.ts,
 * docs/decisions/038-editing-presence.md): one row per item and user, renewed by the editor's
 * heartbeat, live while `last_seen` is under 45 s old. A table rather than the cluster bus, so
 * every instance on one PostgreSQL server reads the same answer; no foreign key to the item (an
 * object page not written yet is open too), and a stale row only costs its expiry.
 */
export const cmsPresence = pgTable(
  'cms_presence',
  {
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The instance (host:pid) that took the last heartbeat: for operators, never read back. */
    instance: text('instance').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.endpoint, t.contentId, t.userId] }),
    index('cms_presence_last_seen_idx').on(t.lastSeen),
  ],
);

/** The media library: every uploaded file, with its alt text (src/server/features/media). */
export const cmsMedia = pgTable(
  'cms_media',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** The address content stores (`/uploads/…` or `/media/protected/…`). */
    url: text('url').notNull(),
    /** image | audio | video */
    kind: text('kind').notNull(),
    contentType: text('content_type').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    alt: text('alt').notNull().default(''),
    /** The name the file was uploaded with, for search. */
    filename: text('filename').notNull().default(''),
    /** SHA-256 of the bytes (hex), to offer the file already there instead of a copy; null: unknown. */
    contentHash: text('content_hash'),
    uploadedBy: text('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cms_media_url_idx').on(t.url),
    index('cms_media_created_idx').on(t.createdAt.desc()),
    index('cms_media_content_hash_idx').on(t.contentHash),
  ],
);

/** API keys of the content API: stored as SHA-256 hashes, each with its permissions. */
export const cmsApiKeys = pgTable(
  'cms_api_keys',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    /** The first characters of the key, to recognise it in lists. */
    keyPrefix: text('key_prefix').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** When the key last opened a request, to the minute (written at most once a minute). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('cms_api_keys_hash_idx').on(t.keyHash)],
);

/** Fixed one-second windows per key and kind (read/write): shared by every app instance. */
export const cmsRateLimits = pgTable(
  'cms_rate_limits',
  {
    keyId: text('key_id').notNull(),
    kind: text('kind').notNull(),
    window: bigint('window', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.kind, t.window] })],
);

/*
 * Identity (better-auth's core tables, src/server/features/identity). Passwords live hashed in
 * `account.password`; sessions and verification tokens are stored in the database.
 */
export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  /** Roles of SPEC §6 (docs/decisions/003-identity.md): member (default), contributor, editor, admin. */
  role: text('role').notNull().default('member'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_user_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

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

/** A signed-in reader's bookmarks (src/server/features/bookmarks): an item of a content endpoint. */
export const bookmarks = pgTable(
  'bookmarks',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.endpoint, t.contentId] }),
    index('bookmarks_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);

/** Messages from the contact form (/contact), kept and mailed to staff. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The signed-in sender, if any (forgotten when the account is deleted). */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt.desc())],
);

/**
 * First-party page views (src/server/features/analytics): no cookie, an anonymous id the browser keeps
 * in localStorage. One row per view; staff read views per item and per day at /admin/analytics.
 */
export const pageViews = pgTable(
  'page_views',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** The day in Japan (YYYY-MM-DD), for per-day counts. */
    day: text('day').notNull(),
    path: text('path').notNull(),
    /** The content endpoint and id the page shows, when it shows one. */
    endpoint: text('endpoint'),
    contentId: text('content_id'),
    referrer: text('referrer'),
    visitorId: text('visitor_id').notNull(),
    /** Who viewed, as the server found from the session: anonymous, member, paid or staff. */
    audience: text('audience'),
    /** The page showed this viewer the item's paywall (checked on the server, view-endpoint.ts). */
    paywall: boolean('paywall').notNull().default(false),
  },
  (t) => [
    index('page_views_day_idx').on(t.day),
    index('page_views_content_idx').on(t.endpoint, t.contentId, t.day),
  ],
);

/**
 * The built-in billing sandbox (src/server/services/billing-sandbox): every Stripe-shaped object it
 * serves, kept as the JSON it answers with. `seq` orders lists newest first and is the paging
 * cursor's position, since `created` (seconds) ties within a second.
 */
export const billingSandboxObjects = pgTable(
  'billing_sandbox_objects',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    data: jsonb('data').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('billing_sandbox_objects_type_seq_idx').on(t.type, t.seq),
    // A lookup key names one price at a time, also under concurrent creates.
    uniqueIndex('billing_sandbox_prices_lookup_key_idx')
      .on(sql`(${t.data} ->> 'lookup_key')`)
      .where(sql`${t.type} = 'price'`),
  ],
);

/** Idempotency-Key answers of the sandbox: a replay gets the first answer. */
export const billingSandboxIdempotency = pgTable('billing_sandbox_idempotency', {
  key: text('key').primaryKey(),
  requestHash: text('request_hash').notNull(),
  /** Null while the first request runs. */
  status: integer('status'),
  response: text('response'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The sandbox's own settings, such as its secret API key (made on first use). */
export const billingSandboxSettings = pgTable('billing_sandbox_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

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
  },
  (t) => [
    uniqueIndex('newsletter_letters_send_user_idx').on(t.sendId, t.userId),
    index('newsletter_letters_send_status_idx').on(t.sendId, t.status),
    // What the senders look at: only rows still to send, oldest due first.
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
 * Gift links (docs/decisions/037-gift-articles.md): a paid reader's link that opens one members'
 * post in full for anyone who has it, for 7 days. Only the SHA-256 of the link's random token is
 * kept; deleting the giver deletes their gifts (the recipient's page names them). The post is
 * its id (moved by a rename, src/server/services/cms/rename.ts) and its creation time: another item
 * given the id later was created later, so the gift opens it not.
 */
export const gifts = pgTable(
  'gifts',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tokenHash: text('token_hash').notNull(),
    giverId: text('giver_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    /** The post's `createdAt`, which no write changes: with the id, the post itself. */
    contentCreatedAt: timestamp('content_created_at', {
      withTimezone: true,
      precision: 3,
    }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('gifts_token_hash_idx').on(t.tokenHash),
    index('gifts_giver_created_idx').on(t.giverId, t.createdAt.desc()),
  ],
);
