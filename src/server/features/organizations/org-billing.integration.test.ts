import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBillingSite } from '@test-support/billing-site';
import { env } from '@/env';
import { useDatabase } from '@/server/platform/db/client';
import { auditEvents, mailOutbox, user } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity';
import { viewerForUser } from '@/server/features/access';
import { audienceChangedSince } from '@/server/features/audience';
import { handleBillingWebhook } from '@/server/features/billing/webhook';
import { runAdminCommand } from '@/server/features/admin/commands';
import { UsageError } from '@/server/features/admin/command';
import { advanceClocklessSubscriptions } from '@/server/services/billing-sandbox/cycle/clock';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import {
  applyOrganizationBillingEvent,
  invoiceForViewer,
  settleOrganizationBilling,
  startOrganizationBilling,
} from '@/server/features/invoice-billing';
import { organizationSeatsHandler } from '@/server/features/invoice-billing/http';
import {
  createOrganization,
  organizationById,
  organizationRevenue,
  setOrganizationAdmin,
  updateOrganization,
  type OrganizationInput,
} from '@/server/features/organizations';

/**
 * 法人プラン wired to 請求書払い (docs/decisions/058-organizations.md, 059-invoice-billing.md),
 * through the billing sandbox and the official SDK, its events delivered to the site's webhook
 * as production wires it: registration starts the subscription, seats are billed and counted as
 * paid for, one organisation's admin never opens another's invoice, an invoice unpaid past the
 * grace period suspends the seats (and the audience cookie signed before) until it is paid.
 */

describe('法人プラン billed by invoice', () => {
  const site = useBillingSite();
  const STAFF = { actor: 'cli:test' };
  let n = 0;

  async function reader(email: string, role: AppUser['role'] = 'member'): Promise<AppUser> {
    const id = `ob${++n}`;
    await site.db.insert(user).values({ id, name: `読者${n}`, email, emailVerified: true, role });
    return { id, email, name: `読者${n}`, role, emailVerified: true };
  }

  const paid = async (u: AppUser) => {
    const viewer = await viewerForUser(u);
    return viewer.kind === 'member' && viewer.paid;
  };

  /** Delivers the sandbox's events due by `now` to the webhook, with the organisations' handler. */
  const deliver = (now = Math.floor(Date.now() / 1000)) =>
    deliverPendingEvents(site.db, {
      now,
      fetch: (input, init) =>
        handleBillingWebhook(new Request(input, init), site.db, applyOrganizationBillingEvent),
    });

  const latestOf = (subscription: Stripe.Subscription) =>
    typeof subscription.latest_invoice === 'string'
      ? subscription.latest_invoice
      : (subscription.latest_invoice?.id ?? '');

  const input = (name: string, seats: number, domain: string): OrganizationInput => ({
    name,
    addressee: `${name} 御中`,
    billingContactName: '経理 花子',
    billingContactEmail: `keiri@${domain}`,
    seats,
    planKey: 'monthly',
    billing: 'invoice',
    domains: [domain],
  });

  async function registered(name: string, seats: number, domain: string, daysUntilDue?: number) {
    const made = await createOrganization(site.db, input(name, seats, domain), STAFF);
    if (!made.ok) throw new Error(JSON.stringify(made.fieldErrors));
    const started = await startOrganizationBilling(site.db, made.id, STAFF, { daysUntilDue });
    expect(started).toEqual({ ok: true });
    return (await organizationById(site.db, made.id))!;
  }

  const mailsOf = (kind: string, to: string) =>
    site.db
      .select({ to: mailOutbox.to, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.to, to)));

  beforeAll(() => useDatabase(site.database));
  afterAll(() => useDatabase(undefined));

  describe('registration', () => {
    it('org-create gives an invoice organisation its customer and send_invoice subscription, and mails the invoice to its billing contact', async () => {
      const lines = await runAdminCommand(
        { database: site.database, actor: 'cli:test' },
        'org-create',
        {
          name: '株式会社登録',
          seats: '3',
          domain: 'register.example',
          billing: 'invoice',
          plan: 'monthly',
          'contact-email': 'keiri@register.example',
        },
      );
      const org = (await organizationById(site.db, lines.at(-1)!))!;
      expect(org.providerCustomerId).toMatch(/^cus_/);
      const subscription = await site.stripe.subscriptions.retrieve(org.providerSubscriptionId!);
      expect(subscription).toMatchObject({
        status: 'active',
        collection_method: 'send_invoice',
        customer: org.providerCustomerId,
      });
      expect(subscription.items.data[0]).toMatchObject({
        quantity: 3,
        price: { id: site.plan('monthly').priceId },
      });
      await deliver();
      const [sent, again] = await mailsOf('organization-invoice-sent', 'keiri@register.example');
      expect(again).toBeUndefined();
      expect(sent?.text).toContain(`/invoices/${latestOf(subscription)}`);
      // Settling again changes nothing (a second save does not start a second subscription).
      expect(await settleOrganizationBilling(site.db, org.id, STAFF)).toBeNull();
      expect((await organizationById(site.db, org.id))?.providerSubscriptionId).toBe(
        org.providerSubscriptionId,
      );
    });

    it('a card organisation gets its customer only at registration (its admin then pays by card: org-card.integration.test.ts)', async () => {
      const made = await createOrganization(
        site.db,
        { ...input('カード株式会社', 2, 'card.example'), billing: 'card' },
        STAFF,
      );
      if (!made.ok) throw new Error('not made');
      expect(await settleOrganizationBilling(site.db, made.id, STAFF)).toBeNull();
      const org = await organizationById(site.db, made.id);
      expect(org?.providerCustomerId).toMatch(/^cus_/);
      expect(org?.providerSubscriptionId).toBeNull();
    });
  });

  describe("an organisation's invoices are its admins' alone", () => {
    it('another organisation’s admin, a member and a reader get nothing; its admin and the site’s admin get the invoice', async () => {
      const a = await registered('甲株式会社', 2, 'kou.example');
      const b = await registered('乙株式会社', 2, 'otsu.example');
      const adminA = await reader('admin@kou-hq.example');
      const adminB = await reader('admin@otsu-hq.example');
      await setOrganizationAdmin(site.db, a.id, adminA.id, STAFF);
      await setOrganizationAdmin(site.db, b.id, adminB.id, STAFF);
      const memberA = await reader('member@kou.example');
      expect(await paid(memberA)).toBe(true);
      const invoiceA = latestOf(
        await site.stripe.subscriptions.retrieve(a.providerSubscriptionId!),
      );
      expect(await invoiceForViewer(site.db, adminA, invoiceA)).toMatchObject({
        id: invoiceA,
        addressee: '甲株式会社',
      });
      expect(await invoiceForViewer(site.db, adminB, invoiceA)).toBeNull();
      expect(await invoiceForViewer(site.db, memberA, invoiceA)).toBeNull();
      expect(
        await invoiceForViewer(site.db, await reader('x@kou.example'), 'in_nothing'),
      ).toBeNull();
      const staff = await reader('staff@publisher.example', 'admin');
      expect(await invoiceForViewer(site.db, staff, invoiceA)).toMatchObject({ id: invoiceA });
    });
  });

  describe('seats are billed and counted as paid for', () => {
    it('staff add seats at once (prorated invoice) and remove them at renewal; joins never pass the seats paid for', async () => {
      const org = await registered('席数株式会社', 2, 'seats.example');
      const more = await updateOrganization(
        site.db,
        org.id,
        input('席数株式会社', 4, 'seats.example'),
        STAFF,
      );
      expect(more).toMatchObject({ ok: true });
      expect(await settleOrganizationBilling(site.db, org.id, STAFF)).toBeNull();
      const added = await site.stripe.subscriptions.retrieve(org.providerSubscriptionId!);
      expect(added.items.data[0]?.quantity).toBe(4);
      const invoices = await site.stripe.invoices.list({ customer: org.providerCustomerId! });
      expect(invoices.data.some((i) => i.billing_reason === 'subscription_update')).toBe(true);

      // Fewer from the renewal: billed 1, the 4 paid for usable until the period ends.
      const fewer = { ...input('席数株式会社', 4, 'seats.example'), renewalSeats: 1 };
      expect(await updateOrganization(site.db, org.id, fewer, STAFF)).toMatchObject({ ok: true });
      expect(await settleOrganizationBilling(site.db, org.id, STAFF)).toBeNull();
      const reduced = await site.stripe.subscriptions.retrieve(org.providerSubscriptionId!);
      expect(reduced.items.data[0]?.quantity).toBe(1);
      expect(await organizationById(site.db, org.id)).toMatchObject({ seats: 4, renewalSeats: 1 });

      // Six readers at the same moment: four seats, decided in the database.
      const readers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => reader(`s${i}@seats.example`)),
      );
      const answers = await Promise.all(readers.map(paid));
      expect(answers.filter(Boolean)).toHaveLength(4);

      // The period ends: the renewal bills one seat, and only one is usable now.
      const periodEnd = reduced.items.data[0]!.current_period_end;
      await advanceClocklessSubscriptions(site.db, periodEnd);
      await deliver(periodEnd);
      expect(await organizationById(site.db, org.id)).toMatchObject({
        seats: 1,
        renewalSeats: null,
      });
      const after = await Promise.all(readers.map(paid));
      expect(after.filter(Boolean)).toHaveLength(1);
    });
  });

  describe("the organisation's admin changes the seats", () => {
    const post = (who: AppUser, fields: Record<string, string>) =>
      organizationSeatsHandler({ db: site.db, viewer: () => Promise.resolve(who) })(
        new Request('http://localhost:3000/api/organization/seats', {
          method: 'POST',
          headers: {
            origin: 'http://localhost:3000',
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams(fields),
        }),
      );

    it('its admin adds seats on a prorated invoice; another organisation’s admin and a member get the 404; bad input changes nothing', async () => {
      const org = await registered('増席株式会社', 2, 'grow.example');
      const other = await registered('他社株式会社', 2, 'other-co.example');
      const admin = await reader('admin@grow-hq.example');
      const otherAdmin = await reader('admin@other-hq.example');
      await setOrganizationAdmin(site.db, org.id, admin.id, STAFF);
      await setOrganizationAdmin(site.db, other.id, otherAdmin.id, STAFF);
      const member = await reader('m@grow.example');
      expect(await paid(member)).toBe(true);

      expect((await post(otherAdmin, { org: org.id, seats: '9' })).status).toBe(404);
      expect((await post(member, { org: org.id, seats: '9' })).status).toBe(404);
      expect((await post(admin, { org: org.id, seats: '0' })).status).toBe(400);
      expect((await post(admin, { org: org.id, seats: 'many' })).status).toBe(400);
      const quantity = async () =>
        (await site.stripe.subscriptions.retrieve(org.providerSubscriptionId!)).items.data[0]
          ?.quantity;
      expect(await quantity()).toBe(2);

      expect((await post(admin, { org: org.id, seats: '5' })).status).toBe(200);
      expect(await quantity()).toBe(5);
      expect(await organizationById(site.db, org.id)).toMatchObject({
        seats: 5,
        renewalSeats: null,
      });
      const audits = await site.db
        .select({ actor: auditEvents.actor, target: auditEvents.target })
        .from(auditEvents)
        .where(eq(auditEvents.action, 'billing.seats.changed'));
      expect(audits).toContainEqual({
        actor: `user:${admin.id}`,
        target: `subscription:${org.providerSubscriptionId!}`,
      });

      expect((await post(admin, { org: org.id, seats: '3' })).status).toBe(200);
      expect(await quantity()).toBe(3);
      expect(await organizationById(site.db, org.id)).toMatchObject({ seats: 5, renewalSeats: 3 });
    });
  });

  describe('late payment', () => {
    const settings = env();
    const grace = settings.INVOICE_GRACE_DAYS;
    beforeAll(() => {
      settings.INVOICE_GRACE_DAYS = 0;
    });
    afterAll(() => {
      settings.INVOICE_GRACE_DAYS = grace;
    });

    it('an invoice unpaid past the grace period suspends the seats at once (the audience cookie too); the transfer restores them', async () => {
      const org = await registered('延滞株式会社', 2, 'late.example', 0);
      const admin = await reader('admin@late-hq.example');
      await setOrganizationAdmin(site.db, org.id, admin.id, STAFF);
      const member = await reader('member@late.example');
      const outsider = await reader('reader@elsewhere.example');
      expect(await paid(member)).toBe(true);
      const revenueBefore = await organizationRevenue(site.db);

      const cookieSignedAt = Date.now() - 1;
      const now = Math.floor(Date.now() / 1000) + 1;
      await advanceClocklessSubscriptions(site.db, now);
      await deliver(now);
      // The front server's audience cookie signed before no longer answers for them.
      expect(audienceChangedSince(member.id, cookieSignedAt)).toBe(true);
      expect(await paid(member)).toBe(false);
      expect(await paid(outsider)).toBe(false);
      // A reader who joins while suspended takes the free seat, and reads no more than the others.
      const newcomer = await reader('newcomer@late.example');
      expect(await paid(newcomer)).toBe(false);
      expect((await organizationById(site.db, org.id))?.overdueSince).not.toBeNull();
      expect(await mailsOf('organization-invoice-overdue', 'admin@late-hq.example')).toHaveLength(
        1,
      );
      // A suspended organisation is not counted on the revenue dashboard.
      expect((await organizationRevenue(site.db)).organizations).toBe(
        revenueBefore.organizations - 1,
      );

      const invoice = await site.stripe.invoices.retrieve(
        latestOf(await site.stripe.subscriptions.retrieve(org.providerSubscriptionId!)),
      );
      const restoredAt = Date.now() - 1;
      const lines = await runAdminCommand(
        { database: site.database, actor: 'cli:test' },
        'billing-bank-transfer',
        {
          org: org.id,
          amount: String(invoice.amount_remaining),
        },
      );
      expect(lines.at(-1)).toContain(org.providerCustomerId!);
      await deliver(Math.floor(Date.now() / 1000) + 1);
      expect((await organizationById(site.db, org.id))?.overdueSince).toBeNull();
      expect(audienceChangedSince(member.id, restoredAt)).toBe(true);
      expect(await paid(member)).toBe(true);
      expect(await paid(newcomer)).toBe(true);
      const [funded] = await site.db
        .select({ actor: auditEvents.actor, detail: auditEvents.detail })
        .from(auditEvents)
        .where(eq(auditEvents.action, 'billing.bank_transfer.funded'));
      expect(funded).toMatchObject({ actor: 'cli:test', detail: { organization: org.id } });
    });

    it('billing-bank-transfer --org refuses an unknown organisation, and --org with --customer', async () => {
      const ctx = { database: site.database, actor: 'cli:test' };
      await expect(
        runAdminCommand(ctx, 'billing-bank-transfer', {
          org: '00000000-0000-4000-8000-000000000000',
          amount: '100',
        }),
      ).rejects.toBeInstanceOf(UsageError);
      await expect(
        runAdminCommand(ctx, 'billing-bank-transfer', { org: 'not-an-id', amount: '100' }),
      ).rejects.toBeInstanceOf(UsageError);
      await expect(
        runAdminCommand(ctx, 'billing-bank-transfer', {
          org: '00000000-0000-4000-8000-000000000000',
          customer: 'cus_abc',
          amount: '100',
        }),
      ).rejects.toThrow('どちらか一方');
    });
  });
});
