import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Site settings an admin changes on the console, one row per key; without a row a setting is
 * its start-up default from src/env.ts. The first is the metered wall's monthly allowance
 * (docs/decisions/055-metered-wall.md). Each change is also audited.
 */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
