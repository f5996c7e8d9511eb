import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import { user } from './identity';

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
    /** When the working copy is to be published by itself (src/server/features/console/scheduler.ts). */
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
