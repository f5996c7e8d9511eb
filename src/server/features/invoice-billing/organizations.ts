import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { env } from '@/env';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import {
  billingPlans,
  organizationAdmins,
  organizationMembers,
  organizations,
} from '@/server/platform/db/schema';
import { noteAudienceChange } from '@/server/features/audience';
import { billingProvider } from '@/server/features/billing';
import {
  applySeatRenewal,
  mailAdminsOverdue,
  mailInvoiceSent,
  organizationById,
  seatsSuspended,
} from '@/server/features/organizations';
import { customerInvoices, invoiceDocument } from './documents';
import { invoiceStanding } from './standing';
import {
  type BillingActor,
  changeSeats,
  startInvoiceSubscription,
  usableSeats,
} from './subscriptions';
import type { InvoiceDocumentView, InvoiceListEntry } from './views';

/**
 * 法人プラン wired to 請求書払い (docs/decisions/058-organizations.md, 059-invoice-billing.md):
 * the organisation's provider customer and `send_invoice` subscription made at registration,
 * seat changes billed through it, and the provider's invoice events applied to the
 * organisation (its seats, whether it is late, the invoice mailed to its billing contact).
 */

/**
 * Makes the organisation's provider customer (its name printed with 御中 on the invoices), and
 * for an invoice-billed one its `send_invoice` subscription of `seats` seats at its plan's price,
 * keeping both ids on the row. Safe to repeat: what exists is kept (a failed start is retried by
 * the next save). A card-billed organisation gets its customer only: its admin pays by card
 * through the hosted Checkout (card.ts), whose subscription its events keep here.
 */
export async function startOrganizationBilling(
  db: Db,
  organizationId: string,
  actor: BillingActor,
  options: { daysUntilDue?: number } = {},
): Promise<{ ok: true } | { ok: false; message: string }> {
  const org = await organizationById(db, organizationId);
  if (!org) return { ok: false, message: '法人が見つかりません。' };
  const { stripe } = await billingProvider(db);
  let customerId = org.providerCustomerId;
  if (!customerId) {
    const customer = await stripe.customers.create({
      name: org.name,
      ...(org.billingContactEmail ? { email: org.billingContactEmail } : {}),
      metadata: { organization_id: org.id },
    });
    customerId = customer.id;
    await db
      .update(organizations)
      .set({ providerCustomerId: customerId })
      .where(eq(organizations.id, org.id));
  }
  if (org.billing !== 'invoice' || org.providerSubscriptionId) return { ok: true };
  const [plan] = await db
    .select({ priceId: billingPlans.priceId })
    .from(billingPlans)
    .where(and(eq(billingPlans.key, org.planKey), eq(billingPlans.active, true)));
  if (!plan)
    return {
      ok: false,
      message: `プラン「${org.planKey}」の価格が決済サービスにないため、請求を始められませんでした。`,
    };
  const { subscription } = await startInvoiceSubscription(db, {
    customerId,
    priceId: plan.priceId,
    seats: org.renewalSeats ?? org.seats,
    ...(options.daysUntilDue !== undefined ? { daysUntilDue: options.daysUntilDue } : {}),
    metadata: { organization_id: org.id },
    actor,
  });
  await db
    .update(organizations)
    .set({ providerSubscriptionId: subscription.id })
    .where(eq(organizations.id, org.id));
  return { ok: true };
}

/**
 * Bills a change of seats: `seats` from now on (more: at once, prorated and invoiced now; fewer:
 * from the renewal, the paid ones usable until then). The row follows the provider
 * (syncSeats), so that the seat rule counts the seats paid for. Added seats of a card
 * organisation are charged on its card at once. Nothing for an organisation without a
 * subscription (card checkout not yet paid, or its billing not started).
 */
export async function billSeatChange(
  db: Db,
  organizationId: string,
  seats: number,
  actor: BillingActor,
  now = new Date(),
): Promise<{ invoiceId: string | null } | null> {
  const org = await organizationById(db, organizationId);
  if (!org?.providerSubscriptionId) return null;
  const change = await changeSeats(
    db,
    org.providerSubscriptionId,
    seats,
    Math.floor(now.getTime() / 1000),
    actor,
  );
  await syncSeats(db, org.id, change.subscription, now, actorName(actor));
  return { invoiceId: change.invoiceId };
}

/**
 * After staff save an organisation (the console, the CLI): its billing started if it was not,
 * and the seats billed (`renewalSeats` when set, else `seats`) made the subscription's. Answers
 * a Japanese sentence when the provider could not be reached or refused (saving again retries).
 */
export async function settleOrganizationBilling(
  db: Db,
  organizationId: string,
  actor: BillingActor,
): Promise<string | null> {
  try {
    const started = await startOrganizationBilling(db, organizationId, actor);
    if (!started.ok) return started.message;
    const org = await organizationById(db, organizationId);
    if (org?.providerSubscriptionId)
      await billSeatChange(db, org.id, org.renewalSeats ?? org.seats, actor);
    return null;
  } catch (error) {
    console.error('[organizations] billing could not be settled:', error);
    return '決済サービスで請求の手続きができませんでした。時間をおいてもう一度保存してください。';
  }
}

const actorName = (actor: BillingActor) =>
  'userId' in actor ? `user:${actor.userId}` : actor.actor;

/**
 * The row's seats as the subscription has them: `seats` = the seats usable now (usableSeats:
 * the quantity, or more until the end of a period in which seats were removed), `renewalSeats`
 * = the quantity when it is fewer. Fewer usable seats than before (the period that paid for
 * them has ended) send the latest to join back to waiting, as a renewal does.
 */
async function syncSeats(
  db: Db,
  organizationId: string,
  subscription: Stripe.Subscription,
  now: Date,
  actor: string,
): Promise<void> {
  const org = await organizationById(db, organizationId);
  if (!org) return;
  const usable = usableSeats(subscription, Math.floor(now.getTime() / 1000));
  const quantity = subscription.items.data[0]?.quantity ?? usable;
  const renewal = quantity < usable ? quantity : null;
  if (usable < org.seats) {
    await db
      .update(organizations)
      .set({ renewalSeats: usable })
      .where(eq(organizations.id, organizationId));
    await applySeatRenewal(db, organizationId, actor);
  }
  await db
    .update(organizations)
    .set({ seats: usable, renewalSeats: renewal, updatedAt: now })
    .where(eq(organizations.id, organizationId));
}

const customerOf = (object: { customer?: string | { id: string } | null }) =>
  typeof object.customer === 'string' ? object.customer : (object.customer?.id ?? null);

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Subscription statuses of a card organisation that pays (or is being asked to). */
export const RUNNING_CARD_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

/**
 * Keeps a card subscription on the card organisation it was paid for, once: only one of this
 * organisation's customer (the provider's own record, not what a page or an event's metadata
 * claims about who paid), made by its checkout (`metadata.organization_id` is this organisation),
 * running, while the organisation has none. Anything else changes nothing (answers false). The
 * seats then follow the subscription's quantity, as an invoice organisation's do.
 */
export async function attachCardSubscription(
  db: Db,
  org: typeof organizations.$inferSelect,
  subscriptionId: string,
  now = new Date(),
): Promise<boolean> {
  if (org.billing !== 'card' || org.providerSubscriptionId || !org.providerCustomerId) return false;
  const { stripe } = await billingProvider(db);
  const subscription = await stripe.subscriptions.retrieve(subscriptionId).catch(() => null);
  if (
    !subscription ||
    idOf(subscription.customer) !== org.providerCustomerId ||
    subscription.metadata.organization_id !== org.id ||
    !RUNNING_CARD_STATUSES.includes(subscription.status)
  )
    return false;
  const kept = await db
    .update(organizations)
    .set({ providerSubscriptionId: subscription.id })
    .where(and(eq(organizations.id, org.id), isNull(organizations.providerSubscriptionId)))
    .returning({ id: organizations.id });
  if (kept.length === 0) return false;
  // Its members read from now on: no audience cookie signed before stands for them.
  await noteSeatHolders(db, org.id);
  await recordAudit(db, {
    actor: 'billing:webhook',
    action: 'billing.organization_card.started',
    target: `organization:${org.id}`,
    detail: {
      subscription: subscription.id,
      seats: subscription.items.data[0]?.quantity ?? null,
    },
  });
  await syncSeats(db, org.id, subscription, now, 'billing:webhook');
  return true;
}

/**
 * A card checkout the admin has just come back from (its `session_id` on the organisation's
 * page): applied at once, by the webhook's own code, if the provider reports it complete for
 * this organisation's customer, so that the admin need not wait for the event.
 */
export async function applyReturnedCheckout(
  db: Db,
  org: typeof organizations.$inferSelect,
  sessionId: string,
): Promise<boolean> {
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId) || !org.providerCustomerId) return false;
  const { stripe } = await billingProvider(db);
  const session = await stripe.checkout.sessions.retrieve(sessionId).catch(() => null);
  const subscriptionId = idOf(session?.subscription);
  if (session?.status !== 'complete' || idOf(session.customer) !== org.providerCustomerId)
    return false;
  return subscriptionId ? attachCardSubscription(db, org, subscriptionId) : false;
}

/**
 * The provider's events about an organisation's customer (the billing webhook passes every
 * event here, docs/decisions/059-invoice-billing.md): `invoice.sent` mails the invoice to the
 * billing contact; a card organisation's completed checkout (or its subscription's first event)
 * keeps the subscription on it; every invoice and subscription event re-reads the organisation's
 * standing (late, suspended, paid up) and a subscription event its seats; a card
 * subscription's end lets go of it. Anything else: nothing.
 */
export async function applyOrganizationBillingEvent(db: Db, event: Stripe.Event): Promise<void> {
  const checkout = event.type === 'checkout.session.completed';
  if (
    !checkout &&
    !event.type.startsWith('invoice.') &&
    !event.type.startsWith('customer.subscription.')
  )
    return;
  const object = event.data.object as {
    customer?: string | { id: string } | null;
    id?: string;
    subscription?: string | { id: string } | null;
  };
  const customerId = customerOf(object);
  if (!customerId) return;
  const [found] = await db
    .select()
    .from(organizations)
    .where(eq(organizations.providerCustomerId, customerId));
  if (!found) return;
  let org = found;
  // The event's own time when it is later than ours (a sandbox clock moved ahead).
  const now = new Date(Math.max(Date.now(), event.created * 1000));
  const subscriptionEvent = event.type.startsWith('customer.subscription.');
  const cardSubscription = checkout ? idOf(object.subscription) : subscriptionEvent && object.id;
  if (cardSubscription && org.billing === 'card' && !org.providerSubscriptionId) {
    if (!(await attachCardSubscription(db, org, cardSubscription, now))) return;
    org = (await db.select().from(organizations).where(eq(organizations.id, org.id)))[0] ?? org;
  }
  if (event.type === 'invoice.sent' && object.id) await mailInvoiceSent(db, org, object.id);
  if (subscriptionEvent && object.id === org.providerSubscriptionId) {
    const { stripe } = await billingProvider(db);
    const subscription = await stripe.subscriptions.retrieve(object.id);
    if (org.billing === 'card' && !RUNNING_CARD_STATUSES.includes(subscription.status)) {
      await releaseCardSubscription(db, org, subscription);
      return;
    }
    await syncSeats(db, org.id, subscription, now, 'billing:webhook');
  }
  await refreshStanding(db, org, now);
}

/**
 * A card organisation's subscription has ended (canceled, or unpaid after the provider's
 * retries): the organisation no longer pays by card, so its seats give no access, its admin may
 * pay again, and the revenue card stops counting it. The seats stay as staff set them.
 */
async function releaseCardSubscription(
  db: Db,
  org: typeof organizations.$inferSelect,
  subscription: Stripe.Subscription,
): Promise<void> {
  await db
    .update(organizations)
    .set({ providerSubscriptionId: null, overdueSince: null })
    .where(eq(organizations.id, org.id));
  // Its members read no more (src/server/features/organizations/seats.ts), at once.
  await noteSeatHolders(db, org.id);
  await recordAudit(db, {
    actor: 'billing:webhook',
    action: 'billing.organization_card.ended',
    target: `organization:${org.id}`,
    detail: { subscription: subscription.id, status: subscription.status },
  });
}

/**
 * Re-reads whether the organisation is paid up and keeps it on the row. Late for the first
 * time: its admins are mailed. Suspended or restored: each seat holder's audience changes at
 * once (an audience cookie signed before is not trusted), as a removal's does.
 */
async function refreshStanding(
  db: Db,
  org: typeof organizations.$inferSelect,
  now: Date,
): Promise<void> {
  if (!org.providerCustomerId) return;
  const graceDays = env().INVOICE_GRACE_DAYS;
  const standing = await invoiceStanding(
    db,
    org.providerCustomerId,
    graceDays,
    Math.floor(now.getTime() / 1000),
  );
  const overdueSince = standing.state === 'current' ? null : new Date(standing.dueDate * 1000);
  if (overdueSince?.getTime() === org.overdueSince?.getTime()) return;
  await db.update(organizations).set({ overdueSince }).where(eq(organizations.id, org.id));
  const was = seatsSuspended(org.overdueSince, now, graceDays);
  const is = seatsSuspended(overdueSince, now, graceDays);
  await recordAudit(db, {
    actor: 'billing:webhook',
    action: overdueSince ? 'organization-invoice-overdue' : 'organization-invoice-paid-up',
    target: `organization:${org.id}`,
    detail: { standing },
  });
  if (was !== is) await noteSeatHolders(db, org.id);
  if (!org.overdueSince && standing.state !== 'current')
    await mailAdminsOverdue(
      db,
      org,
      standing.amountRemaining,
      new Date(standing.suspendsAt * 1000),
    );
}

/** Every seat holder's audience changed (suspended or restored together). */
async function noteSeatHolders(db: Db, organizationId: string): Promise<void> {
  const holders = await db
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.status, 'active'),
      ),
    );
  for (const holder of holders) noteAudienceChange(holder.userId);
}

/**
 * The printable invoice for this reader: any for the site's admins, else only one of the
 * organisations they administer (its customer id is passed to the provider's look-up, so another
 * organisation's invoice, a member's guess or a reader's receipt is simply not found: null).
 */
export async function invoiceForViewer(
  db: Db,
  viewer: { id: string; role: string },
  invoiceId: string,
): Promise<InvoiceDocumentView | null> {
  if (viewer.role === 'admin') return invoiceDocument(db, invoiceId, null);
  const customers = await db
    .select({ customerId: organizations.providerCustomerId })
    .from(organizationAdmins)
    .innerJoin(organizations, eq(organizations.id, organizationAdmins.organizationId))
    .where(eq(organizationAdmins.userId, viewer.id));
  for (const { customerId } of customers) {
    if (!customerId) continue;
    const found = await invoiceDocument(db, invoiceId, customerId);
    if (found) return found;
  }
  return null;
}

/**
 * The organisation's sent invoices from the provider, newest first (none before billing starts,
 * or while the provider cannot be reached).
 */
export async function organizationInvoiceList(
  db: Db,
  org: { providerCustomerId: string | null },
): Promise<InvoiceListEntry[]> {
  if (!org.providerCustomerId) return [];
  // The provider out of reach: the screen still opens, without its invoices this time.
  return customerInvoices(db, org.providerCustomerId).catch((error: unknown) => {
    console.warn('[organizations] the invoices could not be read from the provider:', error);
    return [];
  });
}

/** The quote (見積書) page for the organisation's plan and 宛名, when the plan's price is known. */
export async function quotePathOf(
  db: Db,
  org: { planKey: string; addressee: string },
): Promise<string | null> {
  const [plan] = await db
    .select({ priceId: billingPlans.priceId })
    .from(billingPlans)
    .where(eq(billingPlans.key, org.planKey));
  return plan
    ? `/invoices/quote?${new URLSearchParams({ price: plan.priceId, addressee: org.addressee }).toString()}`
    : null;
}
