import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './identity';

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
