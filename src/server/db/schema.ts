import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
