/**
 * The one schema of the app, the one import point for its tables: each area's tables are in
 * schema/<area>.ts and re-exported here, so drizzle-kit (drizzle.config.ts) and the database
 * client see all of them. `npm run db:generate` writes the SQL migration into drizzle/. Only
 * SQL that PostgreSQL 15 and PGlite (18) both accept may be used.
 */
export * from './schema/platform'; // the audit log, the mail outbox, request rate limits
export * from './schema/identity'; // better-auth's users, sessions, accounts, verifications
export * from './schema/profiles'; // public and private profiles, subscriptions
export * from './schema/content'; // the content service: items and their history, media, API keys
export * from './schema/billing'; // plans, webhook events, invoices, notices
export * from './schema/billing-sandbox'; // the Stripe-compatible sandbox's objects and settings
export * from './schema/newsletter'; // sends, letters, suppressions, consents
export * from './schema/partners'; // inquiries, contracts, job listings and their clicks
export * from './schema/analytics'; // page views and their daily roll-up
export * from './schema/bookmarks'; // bookmarks
export * from './schema/contact'; // contact messages
export * from './schema/gifts'; // gift links
export * from './schema/purchases'; // one-time payments (single articles)
export * from './schema/plan-gifts'; // gift subscriptions (months of a plan given)
export * from './schema/settings'; // site settings changed on the console
export * from './schema/metered'; // metered reads (free members' monthly allowance)
export * from './schema/organizations'; // 法人プラン: organisations, their domains, seats, admins, invitations
export * from './schema/comments'; // readers' comments, their reports, bans and digests
export * from './schema/podcast'; // private podcast feeds' addresses
