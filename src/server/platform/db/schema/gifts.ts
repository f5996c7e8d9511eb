import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './identity';

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
