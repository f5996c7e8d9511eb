import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { findObject, saveObject } from './object-store';
import { attachCard, customerWithCard, switchToFailingCard } from '@test-support/billing-sandbox';
import {
  cardFields,
  expectNoCardNumberStored,
  expectSandboxPage,
  pathOf,
  usePagesSandbox,
} from '@test-support/billing-sandbox-pages';
import { DAY, utc } from '@test-support/unix-time';

/**
 * Billing Portal sessions over the API (the official SDK), and the sandbox's own portal pages
 * driven as a browser without JavaScript would: GET the page, POST its form, follow the 303.
 * Each action on a page is checked against the same call of the API on a twin customer.
 */

const RETURN_URL = 'https://axis.example.jp/account';

describe('billing sandbox portal sessions and the portal pages', () => {
  const pages = usePagesSandbox();

  /** The customer's events, oldest first. */
  const eventsOf = (customerId: string) => pages.sandbox.customerEvents(customerId);

  describe('the Billing Portal session API', () => {
    it('creates a portal session in Stripe’s shape', async () => {
      const customer = await pages.stripe.customers.create({ email: 'portal@example.jp' });
      const session = await pages.stripe.billingPortal.sessions.create({
        customer: customer.id,
        return_url: RETURN_URL,
        locale: 'ja',
      });
      expect(session.id).toMatch(/^bps_/);
      expect(session).toEqual({
        id: session.id,
        object: 'billing_portal.session',
        configuration: 'bpc_sandbox_default',
        created: session.created,
        customer: customer.id,
        customer_account: null,
        flow: null,
        livemode: false,
        locale: 'ja',
        on_behalf_of: null,
        return_url: RETURN_URL,
        url: `${pages.base}/billing-sandbox/portal/${session.id}`,
      });
      expect(
        await pages.stripe.billingPortal.sessions.create({
          customer: customer.id,
          configuration: 'bpc_sandbox_default',
        }),
      ).toMatchObject({ return_url: null, locale: null });
    });

    it('refuses a missing or unknown customer and an unknown configuration', async () => {
      const customer = await pages.stripe.customers.create({});
      await expect(pages.stripe.billingPortal.sessions.create({})).rejects.toMatchObject({
        param: 'customer',
        code: 'parameter_missing',
      });
      await expect(
        pages.stripe.billingPortal.sessions.create({ customer: 'cus_missing' }),
      ).rejects.toMatchObject({ statusCode: 404, param: 'customer' });
      await expect(
        pages.stripe.billingPortal.sessions.create({
          customer: customer.id,
          configuration: 'bpc_other',
        }),
      ).rejects.toMatchObject({ statusCode: 404, param: 'configuration' });
      await expect(
        pages.stripe.billingPortal.sessions.create({
          customer: customer.id,
          flow_data: { type: 'payment_method_update' },
        }),
      ).rejects.toMatchObject({ param: 'flow_data' });
    });
  });

  describe('the portal page', () => {
    /** Two customers on clocks frozen at the same time, each with the same subscription. */
    async function twins(start: number, price: Stripe.Price) {
      const make = async (name: string) => {
        const clock = await pages.stripe.testHelpers.testClocks.create({ frozen_time: start });
        const customer = await customerWithCard(pages.stripe, {
          email: `${name}-${clock.id}@example.jp`,
          test_clock: clock.id,
        });
        const subscription = await pages.stripe.subscriptions.create({
          customer: customer.id,
          items: [{ price: price.id }],
        });
        return { clock, customer, subscription };
      };
      return { portal: await make('portal'), api: await make('api') };
    }

    async function portalFor(customerId: string) {
      const session = await pages.stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: RETURN_URL,
      });
      return { session, path: pathOf(session.url) };
    }

    /** What the portal and the API must agree on, and the customer's events since `from`. */
    async function stateOf(customerId: string, subscriptionId: string, from: number) {
      const subscription = await pages.stripe.subscriptions.retrieve(subscriptionId);
      const events = (await eventsOf(customerId)).slice(from);
      return {
        subscription: {
          status: subscription.status,
          cancel_at_period_end: subscription.cancel_at_period_end,
          cancel_at: subscription.cancel_at,
          canceled_at: subscription.canceled_at,
          price: subscription.items.data[0]?.price.id,
          period: [
            subscription.items.data[0]?.current_period_start,
            subscription.items.data[0]?.current_period_end,
          ],
        },
        events: events.map((event) => [
          event.type,
          Object.keys(event.data.previous_attributes ?? {}),
        ]),
      };
    }

    it('shows the subscriptions, the card and the invoices, accessibly', async () => {
      const start = utc(2027, 4, 1);
      const { portal } = await twins(start, pages.monthly);
      const { session, path } = await portalFor(portal.customer.id);
      const page = await pages.fetchPage(path);
      expect(page.status).toBe(200);
      await expectSandboxPage(page, {
        headers: true,
        shows: [
          'ご契約の管理',
          'AXIS 会員',
          '¥1,100（税込）／月',
          '有効',
          '2027年5月1日',
          'Visa 末尾 4242',
          `href="${RETURN_URL}"`,
          'AXIS 会員（¥2,200（税込）／月）',
          'AXIS 会員（¥11,000（税込）／年）',
        ],
      });
      expect(page.text).toMatch(
        /<td>2027年4月1日<\/td>\s*<td>[A-F0-9]{8}-0001<\/td>\s*<td class="number">\s*¥1,100\s*<\/td>\s*<td>支払い済み<\/td>/,
      );
      expect(session.url).toBe(`${pages.base}${path}`);
    });

    it('cancels at period end after a confirmation, and resumes, as the API does', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, pages.monthly);
      const from = (await eventsOf(portal.customer.id)).length;
      const { path } = await portalFor(portal.customer.id);

      const home = await pages.fetchPage(path);
      const confirmHref = /href="([^"]*\/cancel\?subscription=[^"]+)"/.exec(home.text)?.[1];
      expect(confirmHref).toBe(`${path}/cancel?subscription=${portal.subscription.id}`);
      const confirm = await pages.fetchPage(confirmHref ?? '');
      expect(confirm.status).toBe(200);
      expect(confirm.text).toContain('解約の確認');
      expect(confirm.text).toContain('2027年5月1日までご利用いただけます。');
      await expectSandboxPage(confirm);

      const canceled = await pages.postForm(`${path}/cancel`, {
        subscription: portal.subscription.id,
      });
      expect(canceled.status).toBe(303);
      expect(canceled.location).toBe(`${pages.base}${path}?message=canceled`);
      await pages.stripe.subscriptions.update(api.subscription.id, { cancel_at_period_end: true });
      const afterCancel = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(afterCancel.subscription).toMatchObject({
        cancel_at_period_end: true,
        cancel_at: utc(2027, 5, 1),
        canceled_at: start,
      });
      expect(afterCancel).toEqual(await stateOf(api.customer.id, api.subscription.id, from));

      const shown = await pages.fetchPage(canceled.location ?? '');
      expect(shown.text).toMatch(/<p class="status" role="status">解約を受け付けました。/);
      expect(shown.text).toContain('解約予定（2027年5月1日まで利用できます）');
      expect(shown.text).toContain('解約を取り消す');
      await expectSandboxPage(shown);

      const resumed = await pages.postForm(`${path}/resume`, {
        subscription: portal.subscription.id,
      });
      expect(resumed.location).toBe(`${pages.base}${path}?message=resumed`);
      await pages.stripe.subscriptions.update(api.subscription.id, { cancel_at_period_end: false });
      const afterResume = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(afterResume.subscription).toMatchObject({
        cancel_at_period_end: false,
        cancel_at: null,
      });
      expect(afterResume).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
    });

    it('changes the plan at once without prorations, as the API does with none', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, pages.monthly);
      await pages.stripe.testHelpers.testClocks.advance(portal.clock.id, {
        frozen_time: start + 10 * DAY,
      });
      await pages.stripe.testHelpers.testClocks.advance(api.clock.id, {
        frozen_time: start + 10 * DAY,
      });
      const from = (await eventsOf(portal.customer.id)).length;
      const { path } = await portalFor(portal.customer.id);

      const changed = await pages.postForm(`${path}/change`, {
        subscription: portal.subscription.id,
        price: pages.premium.id,
      });
      expect(changed.location).toBe(`${pages.base}${path}?message=changed`);
      await pages.stripe.subscriptions.update(api.subscription.id, {
        items: [{ id: api.subscription.items.data[0]?.id, price: pages.premium.id }],
        proration_behavior: 'none',
      });
      const samePeriod = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(samePeriod.subscription).toMatchObject({
        price: pages.premium.id,
        period: [start, utc(2027, 5, 1)],
      });
      expect(samePeriod).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
      expect(samePeriod.events.map(([type]) => type)).toEqual(['customer.subscription.updated']);

      // Monthly to yearly: a new period from now, billed at once.
      await pages.postForm(`${path}/change`, {
        subscription: portal.subscription.id,
        price: pages.yearly.id,
      });
      await pages.stripe.subscriptions.update(api.subscription.id, {
        items: [{ id: api.subscription.items.data[0]?.id, price: pages.yearly.id }],
        proration_behavior: 'none',
      });
      const yearlyState = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(yearlyState.subscription.period).toEqual([start + 10 * DAY, utc(2028, 4, 11)]);
      expect(yearlyState).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
      const invoice = await pages.stripe.invoices.retrieve(
        (await pages.stripe.subscriptions.retrieve(portal.subscription.id))
          .latest_invoice as string,
      );
      expect(invoice).toMatchObject({
        billing_reason: 'subscription_update',
        total: 11000,
        status: 'paid',
      });

      // A price that is not on offer (one-time, or the current one) changes nothing.
      const refused = await pages.postForm(`${path}/change`, {
        subscription: portal.subscription.id,
        price: pages.oneTime.id,
      });
      expect(refused.location).toBe(`${pages.base}${path}?message=failed`);
    });

    it('replaces the card and pays a past_due invoice, as the API does', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, pages.monthly);
      // Each card starts failing (0341 made the default): the renewals are declined.
      for (const { customer } of [portal, api])
        await switchToFailingCard(pages.stripe, customer.id);
      for (const { clock } of [portal, api]) {
        await pages.stripe.testHelpers.testClocks.advance(clock.id, {
          frozen_time: utc(2027, 5, 1),
        });
      }
      expect((await pages.stripe.subscriptions.retrieve(portal.subscription.id)).status).toBe(
        'past_due',
      );
      const from = (await eventsOf(portal.customer.id)).length;
      const { path } = await portalFor(portal.customer.id);
      const home = await pages.fetchPage(path);
      expect(home.text).toContain('お支払いが確認できません');
      expect(home.text).toContain('未払い');

      const cardPage = await pages.fetchPage(`${path}/card`);
      expect(cardPage.status).toBe(200);
      await expectSandboxPage(cardPage, { shows: ['Visa 末尾 0341'] });

      const declined = await pages.postForm(`${path}/card`, cardFields('4000000000000002'));
      expect(declined.status).toBe(402);
      expect(declined.text).toContain('カードが拒否されました。別のカードをお試しください。');
      await expectSandboxPage(declined);

      const updated = await pages.postForm(`${path}/card`, cardFields('4242424242424242'));
      expect(updated.location).toBe(`${pages.base}${path}?message=card_updated_paid`);
      const pm = await attachCard(pages.stripe, api.customer.id);
      const apiSubscription = await pages.stripe.subscriptions.retrieve(api.subscription.id);
      await pages.stripe.invoices.pay(apiSubscription.latest_invoice as string, {
        payment_method: pm.id,
      });

      const portalState = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(portalState.subscription.status).toBe('active');
      expect(portalState).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
      const customer = (await pages.stripe.customers.retrieve(
        portal.customer.id,
      )) as Stripe.Customer;
      const defaultCard = await pages.stripe.paymentMethods.retrieve(
        customer.invoice_settings.default_payment_method as string,
      );
      expect(defaultCard.card?.last4).toBe('4242');
      const shown = await pages.fetchPage(updated.location ?? '');
      expect(shown.text).toContain('カードを変更し、未払いの請求をお支払いしました。');
    });

    it('acts only on the customer’s own subscriptions, and only from its own pages', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, pages.monthly);
      const { path } = await portalFor(portal.customer.id);
      const other = await pages.postForm(`${path}/cancel`, { subscription: api.subscription.id });
      expect(other.status).toBe(404);
      const crossSite = await pages.postForm(
        `${path}/cancel`,
        { subscription: portal.subscription.id },
        { origin: 'https://attacker.example' },
      );
      expect(crossSite.status).toBe(403);
      for (const id of [portal.subscription.id, api.subscription.id]) {
        expect((await pages.stripe.subscriptions.retrieve(id)).cancel_at_period_end).toBe(false);
      }
      expect((await pages.fetchPage(`${path}/unknown`)).status).toBe(404);
      expect((await pages.fetchPage('/billing-sandbox/portal/bps_missing')).status).toBe(404);
    });

    it('answers a subscription or price no object can have as not found, changing nothing', async () => {
      const { portal } = await twins(utc(2027, 4, 1), pages.monthly);
      const { path } = await portalFor(portal.customer.id);
      const subscription = portal.subscription.id;
      for (const odd of ['\u0000', `${subscription}\u0000`, '\u0001', '\u202e', 'a b', '%ZZ']) {
        for (const action of ['cancel', 'resume', 'change']) {
          const posted = await pages.postForm(`${path}/${action}`, {
            subscription: odd,
            price: pages.yearly.id,
          });
          expect({ odd, action, status: posted.status }).toEqual({ odd, action, status: 404 });
        }
        const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
        expect(
          (await pages.fetchPage(`${path}/cancel?${query({ subscription: odd })}`)).status,
        ).toBe(404);
        const change = await pages.fetchPage(
          `${path}/change?${query({ subscription, price: odd })}`,
        );
        expect(change.status).toBe(400);
        const posted = await pages.postForm(`${path}/change`, { subscription, price: odd });
        expect(pathOf(posted.location)).toBe(path);
        expect(posted.location).toContain('message=failed');
      }
      const after = await pages.stripe.subscriptions.retrieve(subscription);
      expect(after.cancel_at_period_end).toBe(false);
      expect(after.items.data[0]?.price.id).toBe(pages.monthly.id);
    });

    it('shows an expired portal session as such, with the way back', async () => {
      const start = utc(2027, 4, 1);
      const { portal } = await twins(start, pages.monthly);
      const { session, path } = await portalFor(portal.customer.id);
      const stored = await findObject(pages.database.db, 'billing_portal.session', session.id);
      await saveObject(pages.database.db, {
        ...stored!,
        created: stored!.created - 60 * 60,
      });
      const page = await pages.fetchPage(path);
      expect(page.status).toBe(410);
      expect(page.text).toContain('有効期限が切れています');
      expect(page.text).toContain(`href="${RETURN_URL}"`);
      await expectSandboxPage(page);
      const posted = await pages.postForm(`${path}/cancel`, {
        subscription: portal.subscription.id,
      });
      expect(posted.status).toBe(410);
      expect(
        (await pages.stripe.subscriptions.retrieve(portal.subscription.id)).cancel_at_period_end,
      ).toBe(false);
    });
  });

  it('keeps no card number or security code anywhere', async () => {
    await expectNoCardNumberStored(pages.database);
  });
});
