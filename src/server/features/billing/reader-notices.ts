import 'server-only';
import { and, asc, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { BillingNotice } from '@/lib/billing-notice';
import { pastDuePlanOf } from '@/lib/billing-notice';
import type { Db } from '@/server/platform/db/client';
import {
  auditEvents,
  billingInvoices,
  billingNotifications,
  subscriptions,
} from '@/server/platform/db/schema';
import { claimOccasion } from './notifications';
import { duplicateClaimKey } from './one-plan';
import { billingProvider } from './provider';

/**
 * The billing notices a reader sees under the header (src/lib/billing-notice.ts), from the
 * billing data:
 * - a failed renewal: the unpaid invoice's amount (the site's record of it) and the provider's
 *   next retry (`next_payment_attempt`, which the site does not store: read from the provider,
 *   only for a reader in this state, and left out if the provider cannot be reached);
 * - a plan that ended: once. Showing it claims `plan-ended-notice:<subscription>` in
 *   billing_notifications (the table of "each occasion once"), so a second visit, another
 *   device or another instance does not show it again. Plans that ended long ago
 *   (PLAN_ENDED_NOTICE_DAYS) are not announced;
 * - a second plan reversed (one plan per reader, src/server/features/billing/one-plan.ts): once, in the
 *   same way (`duplicate-notice:<subscription>`), from the reversal's record, which says what
 *   was refunded, beside the plan kept. It comes before the end of a plan.
 */

export const PLAN_ENDED_NOTICE_DAYS = 60;
const DAY_MS = 86_400_000;
/** Statuses of a plan that is over: nothing more is charged, and it gives no access. */
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired']);

export type InvoiceReader = (
  db: Db,
  invoiceId: string,
) => Promise<{
  amountDue: number;
  nextAttempt: Date | null;
  /** The 3-D Secure page when the payment waits for the reader's authentication. */
  authenticationUrl?: string | null;
} | null>;

/**
 * The provider's view of an invoice: what is due, when it is tried next, and where the reader
 * authenticates it if it waits for 3-D Secure.
 */
export const providerInvoice: InvoiceReader = async (db, invoiceId) => {
  const { stripe } = await billingProvider(db);
  const invoice = await stripe.invoices.retrieve(invoiceId);
  return {
    amountDue: invoice.amount_remaining ?? invoice.amount_due,
    nextAttempt: invoice.next_payment_attempt
      ? new Date(invoice.next_payment_attempt * 1000)
      : null,
    authenticationUrl:
      invoice.status === 'open' ? await authenticationUrlOf(stripe, invoice) : null,
  };
};

/**
 * Where the reader authenticates an open invoice's payment that waits for 3-D Secure
 * (`requires_action`): Stripe's hosted invoice page, else the PaymentIntent's next action's
 * page (the sandbox's challenge page). Null when the payment does not wait for that.
 */
async function authenticationUrlOf(stripe: Stripe, invoice: Stripe.Invoice) {
  const payments = await stripe.invoicePayments.list({ invoice: invoice.id ?? '', limit: 3 });
  const open = payments.data.find((payment) => payment.status === 'open');
  const intent = open?.payment.payment_intent;
  if (!intent) return null;
  const paymentIntent =
    typeof intent === 'string' ? await stripe.paymentIntents.retrieve(intent) : intent;
  if (paymentIntent.status !== 'requires_action') return null;
  const next = paymentIntent.next_action;
  const sdk = next?.use_stripe_sdk as { stripe_js?: unknown } | undefined;
  return (
    invoice.hosted_invoice_url ??
    next?.redirect_to_url?.url ??
    (typeof sdk?.stripe_js === 'string' ? sdk.stripe_js : null)
  );
}

type Row = typeof subscriptions.$inferSelect;

async function pastDueNotice(
  db: Db,
  plan: Row,
  readInvoice: InvoiceReader,
): Promise<NonNullable<BillingNotice>> {
  const invoiceId = plan.latestInvoiceId;
  if (!invoiceId) return { kind: 'past_due', amount: null, nextAttempt: null };
  const [[stored], live] = await Promise.all([
    db
      .select({ total: billingInvoices.total })
      .from(billingInvoices)
      .where(eq(billingInvoices.id, invoiceId)),
    plan.provider === 'stripe'
      ? readInvoice(db, invoiceId).catch((error: unknown) => {
          console.warn('[billing] the unpaid invoice could not be read:', error);
          return null;
        })
      : Promise.resolve(null),
  ]);
  const authenticationUrl = live?.authenticationUrl;
  return {
    kind: 'past_due',
    amount: live?.amountDue ?? stored?.total ?? null,
    nextAttempt: live?.nextAttempt?.toISOString() ?? null,
    ...(authenticationUrl && isWebPage(authenticationUrl) ? { authenticationUrl } : {}),
  };
}

/** A page the notice may link: an http(s) address, nothing a link would run or open otherwise. */
const isWebPage = (url: string) =>
  url.length <= 2000 && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);

/**
 * Whether a one-time notice is still to be told: claimed as it is told (`claim`), only looked at
 * otherwise (hasBillingNotice).
 */
type Telling = (db: Db, key: string) => Promise<boolean>;

const stillUntold: Telling = async (db, key) =>
  (
    await db
      .select({ key: billingNotifications.key })
      .from(billingNotifications)
      .where(eq(billingNotifications.key, key))
  ).length === 0;

async function planEndedNotice(
  db: Db,
  newest: Row,
  now: Date,
  tell: Telling,
): Promise<BillingNotice> {
  if (!ENDED.has(newest.status)) return null;
  const endedAt = newest.canceledAt ?? newest.currentPeriodEnd ?? newest.updatedAt;
  if (now.getTime() - endedAt.getTime() > PLAN_ENDED_NOTICE_DAYS * DAY_MS) return null;
  if (!(await tell(db, `plan-ended-notice:${newest.id}`))) return null;
  return { kind: 'plan_ended', planName: newest.planName, endedAt: endedAt.toISOString() };
}

/** The audit action one-plan.ts records a reversal under: the reversal's one record. */
const REVERSED_ACTION = 'billing.subscription.duplicate-reversed';

const reversalDetail = (detail: Record<string, unknown>) => ({
  subscription: typeof detail.subscription === 'string' ? detail.subscription : null,
  kept: typeof detail.kept === 'string' ? detail.kept : null,
  refunded:
    typeof detail.refunded === 'number' && Number.isInteger(detail.refunded) && detail.refunded > 0
      ? detail.refunded
      : 0,
  plan: typeof detail.plan === 'string' ? detail.plan : '',
});

/** The oldest reversal of the reader's second plans not yet told (and claims telling it). */
async function duplicateReversedNotice(
  db: Db,
  userId: string,
  now: Date,
  tell: Telling,
): Promise<BillingNotice> {
  const records = await db
    .select({ detail: auditEvents.detail })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, REVERSED_ACTION),
        eq(auditEvents.target, userId),
        gte(auditEvents.occurredAt, new Date(now.getTime() - PLAN_ENDED_NOTICE_DAYS * DAY_MS)),
        // The window ends at `now` too, so the notice is a function of `now` alone.
        lte(auditEvents.occurredAt, now),
      ),
    )
    .orderBy(asc(auditEvents.occurredAt));
  const reversals = records
    .map((record) => reversalDetail(record.detail))
    .filter((reversal) => reversal.subscription !== null);
  if (reversals.length === 0) return null;
  const keptIds = reversals.flatMap((reversal) => (reversal.kept ? [reversal.kept] : []));
  const kept = keptIds.length
    ? await db
        .select({ id: subscriptions.id, planName: subscriptions.planName })
        .from(subscriptions)
        .where(inArray(subscriptions.id, keptIds))
    : [];
  for (const reversal of reversals) {
    if (!(await tell(db, `duplicate-notice:${reversal.subscription}`))) continue;
    return {
      kind: 'duplicate_reversed',
      reversedPlan: reversal.plan,
      keptPlan: kept.find((row) => row.id === reversal.kept)?.planName ?? '',
      refunded: reversal.refunded,
    };
  }
  return null;
}

const plansNewestFirst = (db: Db, userId: string): Promise<Row[]> =>
  db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt));

/** A failed renewal of the reader's live plan (amount, next retry), or null; nothing claimed. */
export async function pastDueNoticeFor(
  db: Db,
  userId: string,
  options: { readInvoice?: InvoiceReader } = {},
): Promise<BillingNotice> {
  const rows = await plansNewestFirst(db, userId);
  const pastDue = pastDuePlanOf(rows);
  return pastDue ? pastDueNotice(db, pastDue, options.readInvoice ?? providerInvoice) : null;
}

/**
 * The notice for a reader now: a failed renewal of their live plan, else a reversed second plan
 * not yet told, else the end of their newest plan if not yet told. Reading it counts as
 * telling: call it only to show the answer.
 */
export async function readerBillingNotice(
  db: Db,
  userId: string,
  options: { now?: Date; readInvoice?: InvoiceReader } = {},
): Promise<BillingNotice> {
  const rows = await plansNewestFirst(db, userId);
  const pastDue = pastDuePlanOf(rows);
  if (pastDue) return pastDueNotice(db, pastDue, options.readInvoice ?? providerInvoice);
  return oneTimeNotice(db, userId, rows, options.now ?? new Date(), claimOccasion);
}

/**
 * Whether the reader has a notice to be shown now (readerBillingNotice would answer one), from
 * the site's records alone and claiming nothing: the front server renders such a reader's pages
 * for them alone, so that the notice is in the page as sent
 * (src/server/features/front/request-audience.ts).
 */
export async function hasBillingNotice(
  db: Db,
  userId: string,
  options: { now?: Date } = {},
): Promise<boolean> {
  const rows = await plansNewestFirst(db, userId);
  if (pastDuePlanOf(rows)) return true;
  return (await oneTimeNotice(db, userId, rows, options.now ?? new Date(), stillUntold)) !== null;
}

/** A reversed second plan not yet told, else the end of the reader's newest plan if not yet told. */
async function oneTimeNotice(
  db: Db,
  userId: string,
  rows: Row[],
  now: Date,
  tell: Telling,
): Promise<BillingNotice> {
  if (rows.length === 0) return null; // a reversed plan, too, keeps its row
  const reversed = await duplicateReversedNotice(db, userId, now, tell);
  if (reversed) return reversed;
  if (rows.some((row) => ['active', 'trialing'].includes(row.status))) return null;
  // A reversed second plan was told as such; the plan that ended is the one the reader kept.
  const reversedKeys = await db
    .select({ key: billingNotifications.key })
    .from(billingNotifications)
    .where(
      inArray(
        billingNotifications.key,
        rows.map((row) => duplicateClaimKey(row.id)),
      ),
    );
  const newest = rows.find(
    (row) => !reversedKeys.some(({ key }) => key === duplicateClaimKey(row.id)),
  );
  return newest ? planEndedNotice(db, newest, now, tell) : null;
}
