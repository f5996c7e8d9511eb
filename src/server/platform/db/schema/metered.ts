import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './identity';

/**
 * Metered reads (docs/decisions/055-metered-wall.md): one row per free member, Japan-time month
 * (`YYYY-MM`) and post, so a re-read in the same month is free. The post is its id and its
 * creation time, as a gift's is: an item given the id of a deleted post is another post.
 * Deleting the reader deletes their reads.
 */
export const meteredReads = pgTable(
  'metered_reads',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    contentId: text('content_id').notNull(),
    contentCreatedAt: timestamp('content_created_at', {
      withTimezone: true,
      precision: 3,
    }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.month, t.contentId, t.contentCreatedAt] }),
    index('metered_reads_content_idx').on(t.contentId, t.readAt),
  ],
);
