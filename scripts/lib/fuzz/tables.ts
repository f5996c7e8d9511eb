/**
 * "No partial writes": the row counts of the tables a malformed request must never change,
 * before and after the run. A difference is explained only by a write the server accepted
 * (answered 2xx, or a form's 3xx success redirect) on a route that writes that table.
 *
 * Not counted, because a refused request rightly writes them: session and verification
 * (sign-in attempts, tokens the flows mint), audit_events (refused sign-ins are audited),
 * rate_limit_hits and cms_rate_limits (every request counts), page_views and job_apply_clicks
 * (analytics), billing_sandbox_idempotency and billing_sandbox_settings (the sandbox's own
 * bookkeeping).
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';

/** Guarded table → the paths whose accepted writes may change it. */
export const GUARDED_TABLES: Record<string, RegExp> = {
  // A visitor's paid checkout makes its account on the return route (guest-checkout.ts).
  user: /^\/api\/(account|auth|billing\/checkout-return)/,
  account: /^\/api\/(account|auth)\//,
  user_public_profiles: /^\/api\/(account|auth|admin\/users|billing\/checkout-return)/,
  user_private_profiles: /^\/api\/(account|auth|admin\/users|billing\/checkout-return)/,
  bookmarks: /^\/api\/(bookmarks|account\/delete)/,
  cms_contents: /^\/api\/(v1|admin\/content|admin\/transfer|biz|jobs\/listings)\//,
  cms_versions: /^\/api\/(v1|admin\/content|admin\/transfer|biz|jobs\/listings)\//,
  cms_media: /^\/api\/(media|admin\/media|admin\/transfer|account\/edit-profile|biz)/,
  cms_api_keys: /^\/api\/admin\/api-keys/,
  subscriptions:
    /^\/(api\/(billing|webhooks|admin\/users|create-customer-portal)|billing-sandbox)\//,
  billing_invoices: /^\/(api\/(billing|webhooks|admin\/users)|billing-sandbox)\//,
  billing_sandbox_objects: /^\/(api\/(billing|create-customer-portal)|billing-sandbox)\//,
  billing_webhook_events: /^\/api\/webhooks\//,
  billing_notifications: /^\/api\/webhooks\//,
  offer_redemptions: /^\/(api\/webhooks\/|service-plans\/checkout-success)/,
  billing_plans: /^\/api\/webhooks\//,
  mail_outbox: /^\/api\/(account|contact|biz|jobs|billing\/checkout-return)/,
  contact_messages: /^\/api\/contact/,
  partner_inquiries: /^\/api\/(biz|jobs\/contact)/,
  partner_contracts: /^\/api\/biz\/axis-admin\//,
  job_listings: /^\/api\/(jobs\/listings|biz\/axis-admin\/listings)/,
};

export type Counts = Record<string, number>;

export async function countRows(db: Db): Promise<Counts> {
  const counts: Counts = {};
  for (const table of Object.keys(GUARDED_TABLES)) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`,
    );
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}

export type AcceptedWrite = { method: string; path: string; status: number };

/** The guarded tables whose change no accepted write explains. */
export function unexplainedChanges(
  before: Counts,
  after: Counts,
  accepted: AcceptedWrite[],
): { table: string; before: number; after: number }[] {
  const out: { table: string; before: number; after: number }[] = [];
  for (const [table, writers] of Object.entries(GUARDED_TABLES)) {
    if (before[table] === after[table]) continue;
    if (accepted.some((write) => writers.test(write.path))) continue;
    out.push({ table, before: before[table] ?? 0, after: after[table] ?? 0 });
  }
  return out;
}
