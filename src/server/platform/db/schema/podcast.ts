import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './identity';

/**
 * Private podcast feeds (docs/decisions/062-private-podcast-feeds.md): one live feed address per
 * reader, older ones revoked. The address's token is a keyed digest of `nonce` under APP_SECRET,
 * so /account can show it again; only the token's SHA-256 is looked up, and neither column opens
 * a feed without the secret. Deleting the reader deletes their feeds.
 */
export const podcastFeeds = pgTable(
  'podcast_feeds',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('podcast_feeds_token_hash_idx').on(t.tokenHash),
    // At most one live address per reader: a second concurrent creation fails, not doubles.
    uniqueIndex('podcast_feeds_live_user_idx')
      .on(t.userId)
      .where(sql`${t.revokedAt} IS NULL`),
  ],
);
