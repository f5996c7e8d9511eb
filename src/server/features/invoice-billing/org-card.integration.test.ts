import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBillingSite } from '@test-support/billing-site';
import { useDatabase } from '@/server/platform/db/client';
import { auditEvents, mailOutbox, subscriptions, user } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity';
import { viewerForUser } from '@/server/features/access';
import { audienceChangedSince } from '@/server/features/audience';
import { handleBillingWebhook } from '@/server/features/billing/webhook';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import { advanceClocklessSubscriptions } from '@/server/services/billing-sandbox/cycle/clock';
import { attachCard, switchToFailingCard } from '@test-support/billing-sandbox';
import { env } from '@/env';
import {
  applyOrganizationBillingEvent,
  applyReturnedCheckout,
  settleOrganizationBilling,
} from '@/server/features/invoice-billing';
import {
  organizationCheckoutHandler,
  organizationSeatsHandler,
} from '@/server/features/invoice-billing/http';
import {
  createOrganization,
  organizationById,
  organizationRevenue,
  seatsSuspended,
  setOrganizationAdmin,
  type OrganizationInput,
} from '@/server/features/organizations';

/**
 * 法人プラン paid by card (docs/decisions/059-invoice-billing.md, amendment "card"), through the
 * billing sandbox's hosted Checkout and the official SDK, its events delivered to the site's
 * webhook as production wires it: the admin pays seats × price, the subscription and its
 * quantity become the organisation's, nobody else can start or steal it, added seats are charged
 * on the card at once.
 */

describe('法人プラン paid by card', () => {
  const site = useBillingSite();
  const STAFF = { actor: 'cli:test' };
  let n = 0;

  async function reader(email: string): Promise<AppUser> {
    const id = `oc${++n}`;
    await site.db.insert(user).values({ id, name: `読者${n}`, email, emailVerified: true });
    return { id, email, name: `読者${n}`, role: 'member', emailVerified: true };
  }

  const paid = async (u: AppUser) => {
    const viewer = await viewerForUser(u);
    return viewer.kind === 'member' && viewer.paid;
  };

  const deliver = (now = Math.floor(Date.now() / 1000)) =>
    deliverPendingEvents(site.db, {
      now,
      fetch: (input, init) =>
        handleBillingWebhook(new Request(input, init), site.db, applyOrganizationBillingEvent),
    });

  const input = (name: string, seats: number, domain: string): OrganizationInput => ({
    name,
    addressee: `${name} 御中`,
    billingContactName: '経理 花子',
    billingContactEmail: `keiri@${domain}`,
    seats,
    planKey: 'monthly',
    billing: 'card',
    domains: [domain],
  });

  /** A card organisation registered by staff, with its admin. */
  async function registered(name: string, seats: number, domain: string, billing = 'card') {
    const made = await createOrganization(
      site.db,
      { ...input(name, seats, domain), billing: billing as 'card' },
      STAFF,
    );
    if (!made.ok) throw new Error(JSON.stringify(made.fieldErrors));
    expect(await settleOrganizationBilling(site.db, made.id, STAFF)).toBeNull();
    const admin = await reader(`admin${n}@${domain.replace('.', '-hq.')}`);
    await setOrganizationAdmin(site.db, made.id, admin.id, STAFF);
    return { org: (await organizationById(site.db, made.id))!, admin };
  }

  const form = (url: string, fields: Record<string, string>) =>
    new Request(url, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:3000',
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(fields),
    });

  const checkout = (who: AppUser, org: string) =>
    organizationCheckoutHandler({ db: site.db, viewer: () => Promise.resolve(who) })(
      form('http://localhost:3000/api/organization/checkout', { org }),
    );

  /** The admin starts the checkout and pays on the provider's page; events not delivered. */
  async function payByCard(who: AppUser, org: string): Promise<Stripe.Checkout.Session> {
    const started = await checkout(who, org);
    expect(started.status).toBe(303);
    const url = started.headers.get('location')!;
    expect(url).toContain('/billing-sandbox/checkout/cs_test_');
    expect((await site.pay(url)).status).toBe(303);
    const id = url.split('/').at(-1)!;
    return site.stripe.checkout.sessions.retrieve(id);
  }

  const attachGoodCard = (customerId: string) => attachCard(site.stripe, customerId);

  beforeAll(() => useDatabase(site.database));
  afterAll(() => useDatabase(undefined));

  it('its admin pays 3 seats: a subscription of quantity 3 is the organisation’s, 3 members read, the revenue card counts it', async () => {
    const { org, admin } = await registered('カード三席株式会社', 3, 'card3.example');
    expect(org.providerSubscriptionId).toBeNull();
    const before = await organizationRevenue(site.db);
    // Registered by staff but not paid yet: a member at the domain holds a seat, not a plan.
    const early = await reader('early@card3.example');
    expect(await paid(early)).toBe(false);

    const session = await payByCard(admin, org.id);
    expect(session).toMatchObject({
      status: 'complete',
      customer: org.providerCustomerId,
      amount_total: site.plan('monthly').amount * 3,
    });
    await deliver();

    const after = (await organizationById(site.db, org.id))!;
    expect(after).toMatchObject({ providerSubscriptionId: session.subscription, seats: 3 });
    const subscription = await site.stripe.subscriptions.retrieve(after.providerSubscriptionId!);
    expect(subscription).toMatchObject({
      status: 'active',
      collection_method: 'charge_automatically',
      metadata: { organization_id: org.id },
    });
    expect(subscription.items.data[0]?.quantity).toBe(3);
    const invoice = await site.stripe.invoices.retrieve(session.invoice as string);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 3 * site.plan('monthly').amount });

    // The readers' own sync granted nobody an individual plan from it.
    const rows = await site.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscription.id));
    expect(rows).toEqual([]);

    // Paid: the member who joined before reads, and two more of the next four.
    expect(await paid(early)).toBe(true);
    const readers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => reader(`m${i}@card3.example`)),
    );
    const answers = await Promise.all(readers.map(paid));
    expect(answers.filter(Boolean)).toHaveLength(2);

    const revenue = await organizationRevenue(site.db);
    expect(revenue.organizations).toBe(before.organizations + 1);
    expect(revenue.seats).toBe(before.seats + 3);

    // Paying twice is refused: one subscription per organisation.
    expect((await checkout(admin, org.id)).status).toBe(409);
    const audits = await site.db
      .select({ actor: auditEvents.actor })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'billing.organization_checkout.started'));
    expect(audits).toContainEqual({ actor: `user:${admin.id}` });
  });

  it('another organisation’s admin or a member gets the 404; an invoice organisation’s admin the 409', async () => {
    const { org } = await registered('カード他社株式会社', 2, 'card-other.example');
    const { admin: otherAdmin } = await registered('別カード株式会社', 2, 'card-else.example');
    const { org: invoiceOrg, admin: invoiceAdmin } = await registered(
      '請求書株式会社',
      2,
      'card-invoice.example',
      'invoice',
    );
    const member = await reader('m@card-other.example');
    expect((await checkout(otherAdmin, org.id)).status).toBe(404);
    expect((await checkout(member, org.id)).status).toBe(404);
    expect((await checkout(invoiceAdmin, invoiceOrg.id)).status).toBe(409);
    expect(
      (
        await organizationCheckoutHandler({
          db: site.db,
          viewer: () => Promise.resolve(otherAdmin),
        })(form('http://localhost:3000/api/organization/checkout', { org: 'x'.repeat(500) }))
      ).status,
    ).toBe(400);
    const sessions = await site.stripe.checkout.sessions.list({
      customer: org.providerCustomerId!,
    });
    expect(sessions.data).toEqual([]);
  });

  it('a completion for another organisation’s customer, or claiming another organisation, attaches nothing', async () => {
    const { org: a, admin: adminA } = await registered('甲カード株式会社', 2, 'card-a.example');
    const { org: b } = await registered('乙カード株式会社', 2, 'card-b.example');

    // A checkout on A's customer whose subscription claims B (as a forged metadata would).
    const forged = await site.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: a.providerCustomerId!,
      line_items: [{ price: site.plan('monthly').priceId, quantity: 2 }],
      subscription_data: { metadata: { organization_id: b.id } },
      success_url: 'http://localhost:3000/account/organization',
    });
    expect((await site.pay(forged.url!)).status).toBe(303);
    await deliver();
    expect((await organizationById(site.db, a.id))?.providerSubscriptionId).toBeNull();
    expect((await organizationById(site.db, b.id))?.providerSubscriptionId).toBeNull();

    // A's real completion, replayed for B (its page's session_id, or an event naming B's
    // customer): the subscription's customer at the provider is A's, so B gets nothing.
    await site.stripe.subscriptions.cancel(
      (await site.stripe.checkout.sessions.retrieve(forged.id)).subscription as string,
    );
    const real = await payByCard(adminA, a.id);
    expect(await applyReturnedCheckout(site.db, b, real.id)).toBe(false);
    await applyOrganizationBillingEvent(site.db, {
      id: 'evt_replayed',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...real, customer: b.providerCustomerId } },
    } as unknown as Stripe.Event);
    expect((await organizationById(site.db, b.id))?.providerSubscriptionId).toBeNull();

    // A's admin back on A's page: applied at once, before the events arrive.
    expect(await applyReturnedCheckout(site.db, a, real.id)).toBe(true);
    expect(await organizationById(site.db, a.id)).toMatchObject({
      providerSubscriptionId: real.subscription,
      seats: 2,
    });
    await deliver();
    expect((await organizationById(site.db, a.id))?.providerSubscriptionId).toBe(real.subscription);
  });

  it('added seats are charged on the card at once, prorated; removed ones from the renewal', async () => {
    const { org, admin } = await registered('増席カード株式会社', 2, 'card-grow.example');
    const session = await payByCard(admin, org.id);
    await deliver();
    const post = (seats: string) =>
      organizationSeatsHandler({ db: site.db, viewer: () => Promise.resolve(admin) })(
        form('http://localhost:3000/api/organization/seats', { org: org.id, seats }),
      );
    expect((await post('5')).status).toBe(200);
    const subscription = await site.stripe.subscriptions.retrieve(session.subscription as string);
    expect(subscription.items.data[0]?.quantity).toBe(5);
    const invoice = await site.stripe.invoices.retrieve(subscription.latest_invoice as string);
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_update',
      collection_method: 'charge_automatically',
      status: 'paid',
    });
    // Three more seats for (almost) the whole month: prorated, at most 3 × the price.
    const price = site.plan('monthly').amount;
    expect(invoice.amount_paid).toBeGreaterThan(0);
    expect(invoice.amount_paid).toBeLessThanOrEqual(3 * price);
    expect(invoice.amount_paid).toBeGreaterThan(2 * price);
    expect(await organizationById(site.db, org.id)).toMatchObject({ seats: 5, renewalSeats: null });

    expect((await post('3')).status).toBe(200);
    expect(await organizationById(site.db, org.id)).toMatchObject({ seats: 5, renewalSeats: 3 });

    // The subscription ends (canceled at the provider): the organisation lets go of it, the
    // revenue card stops counting it, and its admin may pay again.
    const before = await organizationRevenue(site.db);
    const member = await reader('still@card-grow.example');
    expect(await paid(member)).toBe(true);
    const cookieSignedAt = Date.now() - 1;
    await site.stripe.subscriptions.cancel(subscription.id);
    await deliver();
    expect((await organizationById(site.db, org.id))?.providerSubscriptionId).toBeNull();
    expect((await organizationRevenue(site.db)).organizations).toBe(before.organizations - 1);
    // Its seats read no more, and the audience cookie signed while they did is not trusted.
    expect(await paid(member)).toBe(false);
    expect(audienceChangedSince(member.id, cookieSignedAt)).toBe(true);
    expect((await checkout(admin, org.id)).status).toBe(303);
  });

  describe('a card payment that fails', () => {
    const settings = env();
    const grace = settings.INVOICE_GRACE_DAYS;
    beforeAll(() => {
      settings.INVOICE_GRACE_DAYS = 0;
    });
    afterAll(() => {
      settings.INVOICE_GRACE_DAYS = grace;
    });

    it('a renewal declined makes it past_due: late as an unpaid invoice is (admins warned, seats suspended after the grace period), paid again restores it', async () => {
      const { org, admin } = await registered('延滞カード株式会社', 2, 'card-late.example');
      const session = await payByCard(admin, org.id);
      await deliver();
      const member = await reader('m@card-late.example');
      expect(await paid(member)).toBe(true);

      await switchToFailingCard(site.stripe, org.providerCustomerId!);
      const subscription = await site.stripe.subscriptions.retrieve(session.subscription as string);
      const periodEnd = subscription.items.data[0]!.current_period_end;
      await advanceClocklessSubscriptions(site.db, periodEnd);
      await deliver(periodEnd);
      expect((await site.stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
      const late = (await organizationById(site.db, org.id))!;
      expect(late.overdueSince?.getTime()).toBe(periodEnd * 1000);
      expect(late.providerSubscriptionId).toBe(subscription.id);
      const mails = await site.db
        .select({ subject: mailOutbox.subject })
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, 'organization-invoice-overdue'));
      expect(mails.map((m) => m.subject)).toContainEqual(
        '【AXIS Membership】延滞カード株式会社の法人プランのカードでのお支払いができませんでした',
      );
      // Grace 0: its seats stop giving access from the day the charge was due (the sandbox's
      // clock is a month ahead of ours, so the rule is asked about that day).
      expect(seatsSuspended(late.overdueSince, new Date(periodEnd * 1000), 0)).toBe(true);

      // The card is replaced and the invoice paid: current again.
      await site.stripe.invoices.pay(
        (await site.stripe.subscriptions.retrieve(subscription.id)).latest_invoice as string,
        { payment_method: (await attachGoodCard(org.providerCustomerId!)).id },
      );
      await deliver(periodEnd);
      expect(await organizationById(site.db, org.id)).toMatchObject({ overdueSince: null });
      expect((await site.stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    });
  });
});
