import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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
