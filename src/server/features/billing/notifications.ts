import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { formatPlanPrice, formatYen } from '@/lib/format';
import type { Db } from '@/server/platform/db/client';
import {
  billingNotifications,
  subscriptions,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import { sendMail } from '@/server/platform/mail/mailer';
import { billingMails } from '@/server/platform/mail/templates';
import { planByPrice } from './catalogue';
import type { InvoiceRow, SubscriptionChange } from './records';
import type { Purchase } from '@/server/features/purchases';

/**
 * The billing mails, each sent once per occasion whatever the events' order or repetition:
 * the occasion's key (`receipt:in_…`) is claimed in billing_notifications before the mail goes.
 */

/**
 * Claims an occasion's key in billing_notifications (the table of "each occasion once"); false
 * when it was already claimed, by this instance or another.
 */
export async function claimOccasion(db: Db, key: string): Promise<boolean> {
  const rows = await db
    .insert(billingNotifications)
    .values({ key })
    .onConflictDoNothing()
    .returning({ key: billingNotifications.key });
  return rows.length === 1;
}

async function recipient(db: Db, userId: string) {
  const [row] = await db
    .select({ email: userPrivateProfiles.email, name: userPublicProfiles.displayName })
    .from(userPrivateProfiles)
    .innerJoin(userPublicProfiles, eq(userPublicProfiles.userId, userPrivateProfiles.userId))
    .where(eq(userPrivateProfiles.userId, userId));
  return row ?? null;
}

async function send(
  db: Db,
  userId: string | null,
  key: string,
  mail: (to: string, name: string) => Parameters<typeof sendMail>[1],
): Promise<void> {
  if (!userId) return;
  const to = await recipient(db, userId);
  if (!to || !(await claimOccasion(db, key))) return;
  await sendMail(db, mail(to.email, to.name));
}

async function priceText(db: Db, priceId: string | null): Promise<string> {
  const plan = priceId ? await planByPrice(db, priceId) : null;
  return plan ? formatPlanPrice(plan.amount, plan.interval) : '';
}

const LIVE = ['active', 'trialing'];

/** Mails that a change of a subscription calls for: welcome, cancellation confirmed. */
export async function notifySubscriptionChange(db: Db, change: SubscriptionChange): Promise<void> {
  const { before, after } = change;
  const wasLive = before !== null && (LIVE.includes(before.status) || before.status === 'past_due');
  if (!wasLive && LIVE.includes(after.status)) {
    const price = await priceText(db, after.priceId);
    await send(db, after.userId, `welcome:${after.id}`, (to, name) =>
      billingMails.welcome(to, name, {
        name: after.planName,
        price,
        trialEnd: after.status === 'trialing' ? after.trialEnd : null,
        renewsAt: after.currentPeriodEnd,
      }),
    );
  }
  const newlyCanceling = after.cancelAtPeriodEnd && !(before?.cancelAtPeriodEnd ?? false);
  if (newlyCanceling && after.status !== 'canceled') {
    const endsAt = after.currentPeriodEnd;
    await send(db, after.userId, `cancel:${after.id}:${endsAt?.getTime() ?? 0}`, (to, name) =>
      billingMails.cancellationConfirmed(to, name, { name: after.planName, endsAt }),
    );
  }
}

/** The receipt mail, once an invoice with something to pay is paid. */
export async function notifyInvoicePaid(db: Db, invoice: InvoiceRow): Promise<void> {
  if (invoice.status !== 'paid' || invoice.total <= 0 || !invoice.paidAt) return;
  const paidAt = invoice.paidAt;
  await send(db, invoice.userId, `receipt:${invoice.id}`, (to, name) =>
    billingMails.receipt(to, name, {
      number: invoice.number ?? invoice.id,
      total: formatYen(invoice.total),
      tax: formatYen(invoice.tax),
      paidAt,
      url: `${env().SITE_URL}/account/receipts/${encodeURIComponent(invoice.id)}`,
    }),
  );
}

/** A failed charge: once per attempt. */
export async function notifyPaymentFailed(
  db: Db,
  invoice: InvoiceRow,
  attempt: number,
  nextAttempt: Date | null,
): Promise<void> {
  await send(db, invoice.userId, `payment-failed:${invoice.id}:${attempt}`, (to, name) =>
    billingMails.paymentFailed(to, name, { total: formatYen(invoice.total), nextAttempt }),
  );
}

/**
 * A renewal's charge that waits for the reader's 3-D Secure authentication
 * (`invoice.payment_action_required`): once per invoice, however often the retries ask again.
 */
export async function notifyAuthenticationRequired(
  db: Db,
  invoice: InvoiceRow,
  nextAttempt: Date | null,
): Promise<void> {
  if (invoice.status !== 'open') return; // authenticated (or void) by the time the event came
  const [plan] = invoice.subscriptionId
    ? await db
        .select({ planName: subscriptions.planName })
        .from(subscriptions)
        .where(eq(subscriptions.id, invoice.subscriptionId))
    : [];
  await send(db, invoice.userId, `authentication-required:${invoice.id}`, (to, name) =>
    billingMails.authenticationRequired(to, name, {
      planName: plan?.planName ?? '',
      total: formatYen(invoice.total),
      nextAttempt,
    }),
  );
}

/** Stripe's customer.subscription.trial_will_end, three days before the trial ends. */
export async function notifyTrialEnding(db: Db, change: SubscriptionChange): Promise<void> {
  const { after } = change;
  if (after.status !== 'trialing' || !after.trialEnd || after.cancelAtPeriodEnd) return;
  const endsAt = after.trialEnd;
  const price = await priceText(db, after.priceId);
  await send(db, after.userId, `trial-ending:${after.id}:${endsAt.getTime()}`, (to, name) =>
    billingMails.trialEnding(to, name, { planName: after.planName, price, endsAt }),
  );
}

/** A second plan reversed (one-plan.ts): what was undone, what stays, what was refunded. */
export async function notifyDuplicateReversed(
  db: Db,
  userId: string,
  reversal: { subscriptionId: string; refunded: number },
  plans: { reversedPlan: string; keptPlan: string },
): Promise<void> {
  await send(db, userId, `duplicate-mail:${reversal.subscriptionId}`, (to, name) =>
    billingMails.duplicateReversed(to, name, {
      reversedPlan: plans.reversedPlan,
      keptPlan: plans.keptPlan,
      refunded: reversal.refunded > 0 ? formatYen(reversal.refunded) : null,
    }),
  );
}

/** A konbini purchase's voucher, mailed once to its buyer with the deadline and its page. */
export async function notifyKonbiniVoucher(db: Db, purchase: Purchase): Promise<void> {
  const { voucherUrl, voucherExpiresAt } = purchase;
  if (!voucherUrl || !voucherExpiresAt) return;
  await send(db, purchase.userId, `konbini-voucher:${purchase.id}`, (to, name) =>
    billingMails.konbiniVoucher(to, name, {
      title: purchase.title,
      total: formatYen(purchase.amount),
      expiresAt: voucherExpiresAt,
      url: voucherUrl,
      tip: purchase.kind === 'tip',
    }),
  );
}
