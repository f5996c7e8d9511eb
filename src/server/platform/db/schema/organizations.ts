import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './identity';

/**
 * 法人プラン (docs/decisions/058-organizations.md, src/server/features/organizations): a company
 * buys seats; readers whose confirmed address is at one of its domains, or whom its admins
 * invited, take them and read as paid members.
 */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    /** The invoice's addressee, as printed (「株式会社○○ 御中」). */
    addressee: text('addressee').notNull(),
    /** Who receives the invoices; null until staff name them (the CLI registers without). */
    billingContactName: text('billing_contact_name'),
    billingContactEmail: text('billing_contact_email'),
    /** Seats paid for now: at most this many members hold one. */
    seats: integer('seats').notNull(),
    /** Seats from the next renewal (fewer or more), null when unchanged. */
    renewalSeats: integer('renewal_seats'),
    /** The catalogue's plan whose monthly price each seat costs (`monthly`, `yearly`). */
    planKey: text('plan_key').notNull(),
    /** How the company pays: by card, or by invoice and bank transfer (the billing sandbox's). */
    billing: text('billing').$type<'card' | 'invoice'>().notNull(),
    /** The provider's customer and subscription, once billing has made them. */
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    /**
     * 請求書払い's standing, from the provider's invoice events: the due date of the oldest
     * invoice still unpaid past it, null while paid up. The seats stop giving access once
     * INVOICE_GRACE_DAYS have also passed (docs/decisions/059-invoice-billing.md).
     */
    overdueSince: timestamp('overdue_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('organizations_seats_check', sql`${t.seats} >= 1 AND ${t.seats} <= 10000`),
    check('organizations_billing_check', sql`${t.billing} IN ('card', 'invoice')`),
  ],
);

/** An allowed e-mail domain, lower-case ASCII (an IDN as punycode); one organisation each. */
export const organizationDomains = pgTable(
  'organization_domains',
  {
    domain: text('domain').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [index('organization_domains_org_idx').on(t.organizationId)],
);

/**
 * A reader's place in an organisation: `active` holds a seat while `email` is still the
 * reader's confirmed address; `waiting` asked for one when none was left; `left` changed their
 * address; `removed` was removed by an admin and joins again only by invitation. One active
 * membership per reader (the partial unique index).
 */
export const organizationMembers = pgTable(
  'organization_members',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    status: text('status').$type<'active' | 'waiting' | 'left' | 'removed'>().notNull(),
    /** How the reader came: their address's domain, or an admin's invitation. */
    via: text('via').$type<'domain' | 'invite'>().notNull(),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    uniqueIndex('organization_members_one_active_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'active'`),
    index('organization_members_status_idx').on(t.organizationId, t.status),
    // The access policy's look at a reader's seat, on every request it is asked.
    index('organization_members_user_idx').on(t.userId),
  ],
);

/** The organisation's admins: they see its screen; holding a seat is apart from it. */
export const organizationAdmins = pgTable(
  'organization_admins',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('organization_admins_user_idx').on(t.userId),
  ],
);

/** An address an admin invited (lower case): it joins once confirmed, whatever its domain. */
export const organizationInvites = pgTable(
  'organization_invites',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedBy: text('invited_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.email] }),
    index('organization_invites_email_idx').on(t.email),
  ],
);

/**
 * The posts a seat's holder read, per Japan-time month (`YYYY-MM`), once each: the monthly
 * reading report (研修費の記録).
 */
export const organizationReads = pgTable(
  'organization_reads',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    contentId: text('content_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month, t.userId, t.contentId] })],
);
