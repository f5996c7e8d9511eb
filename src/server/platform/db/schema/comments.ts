import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './identity';

/**
 * Readers' comments on posts, audios and movies (src/server/features/comments,
 * docs/decisions/061-comments.md). A reply names its parent (one level deep: the parent is never
 * itself a reply). Deleted by its writer: the row stays with an empty body and `deletedAt`, so
 * the replies under it keep their place. Hidden by staff: never shown, kept for the record.
 */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => comments.id, {
      onDelete: 'cascade',
    }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    pinnedAt: timestamp('pinned_at', { withTimezone: true }),
  },
  (t) => [
    index('comments_item_idx').on(t.endpoint, t.contentId, t.createdAt),
    index('comments_user_idx').on(t.userId),
    index('comments_created_idx').on(t.createdAt),
  ],
);

/** 「報告する」: one report per member per comment; `resolvedAt` once staff dealt with it. */
export const commentReports = pgTable(
  'comment_reports',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index('comment_reports_open_idx').on(t.resolvedAt, t.createdAt),
  ],
);

/** Members banned from commenting: their comments never show and their writes are refused. */
export const commentBans = pgTable('comment_bans', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  bannedBy: text('banned_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The daily digest of new comments an author was sent (claimed first: once per day, JST). */
export const commentDigests = pgTable(
  'comment_digests',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The Japan-time day the digest covers, YYYY-MM-DD. */
    day: text('day').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
