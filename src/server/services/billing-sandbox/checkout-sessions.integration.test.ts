import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { billingSandboxObjects } from '@/server/platform/db/schema';
import { findObject, saveObject } from './object-store';
import {
  cardFields,
  eventsOfType,
  expectNoCardNumberStored,
  expectSandboxPage,
  pathOf,
  usePagesSandbox,
} from '@test-support/billing-sandbox-pages';
import { DAY } from '@test-support/unix-time';

/**
 * Checkout Sessions over the API (the official SDK), and the sandbox's own checkout page
 * driven as a browser without JavaScript would: GET the page, POST its form, follow the 303.
 * The portal: billing-portal.integration.test.ts.
 */

const SUCCESS_URL = 'https://axis.example.jp/membership/welcome?session_id={CHECKOUT_SESSION_ID}';
const CANCEL_URL = 'https://axis.example.jp/membership';

describe('billing sandbox checkout sessions and the checkout page', () => {
  const pages = usePagesSandbox();

  function checkoutSession(params: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
    return pages.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: pages.monthly.id, quantity: 1 }],
      customer_email: 'member@example.jp',
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
      locale: 'ja',
      ...params,
    });
  }

  /** A customer made with that e-mail, and a session with a 14-day trial for it. */
  async function trialSessionOfNewCustomer(
    email: string,
    params: Partial<Stripe.Checkout.SessionCreateParams> = {},
  ) {
    const customer = await pages.stripe.customers.create({ email });
    const session = await checkoutSession({
      customer: customer.id,
      customer_email: undefined,
      subscription_data: { trial_period_days: 14 },
      ...params,
    });
    return { customer, session };
  }

  async function countOf(type: string): Promise<number> {
    const rows = await pages.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(billingSandboxObjects)
      .where(eq(billingSandboxObjects.type, type));
    return rows[0]?.count ?? 0;
  }

  describe('the Checkout Session API', () => {
    it('creates a subscription-mode session in the pinned version’s shape', async () => {
      const session = await checkoutSession({
        client_reference_id: 'member_42',
        metadata: { plan: 'monthly' },
        subscription_data: { metadata: { source: 'checkout' } },
      });
      expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{24}$/);
      expect(session).toMatchObject({
        object: 'checkout.session',
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        url: `${pages.base}/billing-sandbox/checkout/${session.id}`,
        customer: null,
        customer_email: 'member@example.jp',
        subscription: null,
        invoice: null,
        currency: 'jpy',
        amount_subtotal: 1100,
        amount_total: 1100,
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 100 },
        client_reference_id: 'member_42',
        metadata: { plan: 'monthly' },
        locale: 'ja',
        success_url: SUCCESS_URL,
        cancel_url: CANCEL_URL,
        livemode: false,
        ui_mode: 'hosted_page',
        payment_method_types: ['card'],
        custom_fields: [],
      });
      expect(session.expires_at).toBe(session.created + DAY);
      expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toEqual(
        expect.objectContaining({ id: session.id, status: 'open', url: session.url }),
      );
      const items = await pages.stripe.checkout.sessions.listLineItems(session.id);
      expect(items.data).toHaveLength(1);
      expect(items.data[0]).toMatchObject({
        object: 'item',
        amount_total: 1100,
        amount_tax: 100,
        description: 'AXIS 会員',
        quantity: 1,
        price: { id: pages.monthly.id },
      });
    });

    it('takes an existing customer and a trial (nothing due today)', async () => {
      const { customer, session } = await trialSessionOfNewCustomer('existing@example.jp', {
        expires_at: Math.floor(Date.now() / 1000) + 3600,
      });
      expect(session).toMatchObject({
        customer: customer.id,
        customer_email: null,
        amount_total: 0,
        total_details: { amount_tax: 0 },
      });
      expect(session.expires_at - session.created).toBeLessThanOrEqual(3600);
    });

    it('refuses what Stripe or the sandbox refuses, with Stripe’s errors', async () => {
      const refusal = (params: Partial<Stripe.Checkout.SessionCreateParams>) =>
        checkoutSession(params).catch((error: unknown) => error);
      const customer = await pages.stripe.customers.create({ email: 'refused@example.jp' });
      const cases: [Partial<Stripe.Checkout.SessionCreateParams>, string | undefined, RegExp][] = [
        [{ mode: 'setup' }, 'mode', /payment and subscription mode only/],
        [{ mode: 'payment' }, 'line_items[0][price]', /passed a recurring price/],
        [{ line_items: undefined }, 'line_items', /Missing required param/],
        [
          { line_items: [{ price: pages.oneTime.id, quantity: 1 }] },
          'line_items',
          /recurring price/,
        ],
        [
          { line_items: [{ price: pages.monthly.id, quantity: 0 }] },
          'line_items[0][quantity]',
          /greater than or equal to 1/,
        ],
        [
          {
            line_items: [
              { price: pages.monthly.id, quantity: 1 },
              { price: pages.premium.id, quantity: 1 },
            ],
          },
          'line_items[1]',
          /one line item/,
        ],
        [
          { line_items: [{ price: 'price_missing', quantity: 1 }] },
          'line_items[0][price]',
          /No such price/,
        ],
        [{ customer: customer.id }, undefined, /only specify one of/],
        [{ customer: 'cus_missing', customer_email: undefined }, 'customer', /No such customer/],
        [{ customer_email: undefined }, 'customer_email', /customer or customer_email/],
        [{ success_url: 'javascript:alert(1)' }, 'success_url', /Not a valid URL/],
        [{ locale: 'fr' }, 'locale', /Invalid locale/],
        [{ expires_at: Math.floor(Date.now() / 1000) + 60 }, 'expires_at', /at least 30 minutes/],
        [{ expires_at: Math.floor(Date.now() / 1000) + 2 * DAY }, 'expires_at', /24 hours/],
        [
          { payment_intent_data: { description: 'x' } },
          'payment_intent_data',
          /only specify `payment_intent_data` in `payment` mode/,
        ],
      ];
      for (const [params, param, message] of cases) {
        const error = await refusal(params);
        expect(error, JSON.stringify(params)).toBeInstanceOf(Stripe.errors.StripeError);
        expect(error).toMatchObject({ param, message: expect.stringMatching(message) as string });
      }
      await expect(
        pages.stripe.checkout.sessions.retrieve('cs_test_missing'),
      ).rejects.toMatchObject({
        statusCode: 404,
        code: 'resource_missing',
      });
    });

    it('expires an open session once, with its event, and lists by status', async () => {
      const session = await checkoutSession();
      const expired = await pages.stripe.checkout.sessions.expire(session.id);
      expect(expired).toMatchObject({ status: 'expired', url: null, payment_status: 'unpaid' });
      await expect(pages.stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
        message:
          'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `expired`.',
      });
      expect(await eventsOfType(pages.stripe, 'checkout.session.expired', session.id)).toHaveLength(
        1,
      );
      const listed = await pages.stripe.checkout.sessions.list({ status: 'expired', limit: 100 });
      expect(listed.data.map((item) => item.id)).toContain(session.id);
      const open = await pages.stripe.checkout.sessions.list({ status: 'open', limit: 100 });
      expect(open.data.map((item) => item.id)).not.toContain(session.id);
    });
  });

  describe('the checkout page', () => {
    it('shows the plan, the e-mail and an accessible card form, marked as a test', async () => {
      const session = await checkoutSession();
      const page = await pages.fetchPage(pathOf(session.url));
      expect(page.status).toBe(200);
      await expectSandboxPage(page, {
        headers: true,
        shows: [
          'AXIS 会員',
          '¥1,100（税込）／月',
          'member@example.jp',
          '4242 4242 4242 4242',
          '4000 0000 0000 0002',
          '4000 0000 0000 0341',
          '申し込む',
          `href="${CANCEL_URL}"`,
        ],
      });
      // A post may end at the success_url's origin: CSP's form-action allows it.
      expect(page.headers.get('content-security-policy')).toContain(
        "form-action 'self' https://axis.example.jp",
      );
      for (const autocomplete of ['cc-number', 'cc-exp', 'cc-csc', 'cc-name']) {
        expect(page.text).toContain(`autocomplete="${autocomplete}"`);
      }
      expect(page.text.match(/inputmode="numeric"/g)).toHaveLength(3);
      expect(page.text).toMatch(
        /<form[^>]+method="post"[^>]+action="\/billing-sandbox\/checkout\//,
      );
    });

    it('shows a trial as days free, then the price, with the date of the first charge', async () => {
      const session = await checkoutSession({ subscription_data: { trial_period_days: 14 } });
      const page = await pages.fetchPage(pathOf(session.url));
      expect(page.text).toContain('14日間無料、その後 ¥1,100／月（税込）');
      const first = /初回のお支払い日<\/dt>\s*<dd>(.*?)<\/dd>/.exec(page.text)?.[1];
      const format = (seconds: number) =>
        new Intl.DateTimeFormat('ja-JP', {
          timeZone: 'Asia/Tokyo',
          year: 'numeric',
          month: 'long',
          day: 'numeric',
        }).format(new Date(seconds * 1000));
      expect([format(session.created + 14 * DAY), format(Date.now() / 1000 + 14 * DAY)]).toContain(
        first,
      );
      expect(page.text).toMatch(/本日のお支払い：<span class="total">¥0<\/span>/);
      await expectSandboxPage(page);
    });

    it('completes with 4242: subscription active, session complete, event, redirect', async () => {
      const session = await checkoutSession({
        subscription_data: { metadata: { source: 'checkout' } },
      });
      const page = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
      expect(page.status).toBe(303);
      expect(page.location).toBe(
        `https://axis.example.jp/membership/welcome?session_id=${session.id}`,
      );

      const completed = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['subscription'],
      });
      expect(completed).toMatchObject({
        status: 'complete',
        payment_status: 'paid',
        url: null,
        customer_details: { email: 'member@example.jp', name: 'TARO YAMADA' },
      });
      const subscription = completed.subscription as Stripe.Subscription;
      expect(subscription).toMatchObject({
        object: 'subscription',
        status: 'active',
        metadata: { source: 'checkout' },
        customer: completed.customer,
        latest_invoice: completed.invoice,
      });
      expect(subscription.items.data[0]?.price.id).toBe(pages.monthly.id);
      const customer = (await pages.stripe.customers.retrieve(
        completed.customer as string,
      )) as Stripe.Customer;
      expect(customer.email).toBe('member@example.jp');
      const card4242 = await pages.stripe.paymentMethods.retrieve(
        customer.invoice_settings.default_payment_method as string,
      );
      expect(card4242).toMatchObject({ customer: customer.id, card: { last4: '4242' } });
      expect(await pages.stripe.invoices.retrieve(completed.invoice as string)).toMatchObject({
        status: 'paid',
        amount_paid: 1100,
      });
      const events = await eventsOfType(pages.stripe, 'checkout.session.completed', session.id);
      expect(events).toHaveLength(1);
      expect(events[0]?.data.object).toMatchObject({
        status: 'complete',
        subscription: subscription.id,
      });

      const bySubscription = await pages.stripe.checkout.sessions.list({
        subscription: subscription.id,
      });
      expect(bySubscription.data.map((item) => item.id)).toEqual([session.id]);
      const byCustomer = await pages.stripe.checkout.sessions.list({ customer: customer.id });
      expect(byCustomer.data.map((item) => item.id)).toEqual([session.id]);

      // The page of a completed session says so and links to the success_url.
      const after = await pages.fetchPage(pathOf(session.url));
      expect(after.status).toBe(200);
      await expectSandboxPage(after, {
        shows: [
          'お申し込みは完了しています',
          `href="https://axis.example.jp/membership/welcome?session_id=${session.id}"`,
        ],
      });
    });

    it('sells seats: quantity 3 is charged unit × 3, on the item and the invoice line', async () => {
      const session = await checkoutSession({
        line_items: [{ price: pages.monthly.id, quantity: 3 }],
      });
      expect(session).toMatchObject({ amount_subtotal: 3300, amount_total: 3300 });
      expect(session.total_details?.amount_tax).toBe(300);
      const items = await pages.stripe.checkout.sessions.listLineItems(session.id);
      expect(items.data[0]).toMatchObject({
        quantity: 3,
        amount_subtotal: 3300,
        amount_total: 3300,
      });
      const shown = await pages.fetchPage(pathOf(session.url));
      await expectSandboxPage(shown, { shows: ['3 席', '¥3,300'] });

      expect(
        (await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'))).status,
      ).toBe(303);
      const completed = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['subscription'],
      });
      const subscription = completed.subscription as Stripe.Subscription;
      expect(subscription.items.data[0]).toMatchObject({ quantity: 3 });
      const invoice = await pages.stripe.invoices.retrieve(completed.invoice as string);
      expect(invoice).toMatchObject({ status: 'paid', amount_paid: 3300 });
      expect(invoice.lines.data[0]).toMatchObject({ quantity: 3, amount: 3300 });
    });

    it('makes a new customer from customer_email each time, as Stripe does in subscription mode', async () => {
      // Stripe: "For Checkout Sessions in subscription mode … Checkout will create a new customer
      // object based on information provided during the payment flow unless an existing customer
      // was provided", customer_email being "used when the Customer object is created". It looks
      // no customer up by address: a site's guest checkout relies on that.
      const existing = await pages.stripe.customers.create({ email: 'guest@example.jp' });
      const customers: string[] = [];
      for (const trial of [14, undefined]) {
        const session = await checkoutSession({
          customer_email: 'guest@example.jp',
          subscription_data: trial ? { trial_period_days: trial } : undefined,
        });
        expect(session).toMatchObject({ customer: null, customer_email: 'guest@example.jp' });
        const page = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
        expect(page.status).toBe(303);
        const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
        expect(completed).toMatchObject({
          status: 'complete',
          customer_email: 'guest@example.jp',
          customer_details: { email: 'guest@example.jp' },
          payment_status: trial ? 'no_payment_required' : 'paid',
        });
        const customer = (await pages.stripe.customers.retrieve(
          completed.customer as string,
        )) as Stripe.Customer;
        expect(customer.email).toBe('guest@example.jp');
        customers.push(customer.id);
      }
      expect(new Set([existing.id, ...customers]).size).toBe(3);
    });

    it('completes a trial for an existing customer: trialing, no payment required', async () => {
      const { customer, session } = await trialSessionOfNewCustomer('trial@example.jp');
      const page = await pages.postForm(pathOf(session.url), cardFields('4000000000000341'));
      expect(page.status).toBe(303);
      const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
      expect(completed).toMatchObject({
        status: 'complete',
        payment_status: 'no_payment_required',
        customer: customer.id,
      });
      const subscription = await pages.stripe.subscriptions.retrieve(
        completed.subscription as string,
      );
      expect(subscription.status).toBe('trialing');
      expect((subscription.trial_end ?? 0) - (subscription.trial_start ?? 0)).toBe(14 * DAY);
      expect(await countOf('customer')).toBeGreaterThan(0);
      const updated = (await pages.stripe.customers.retrieve(customer.id)) as Stripe.Customer;
      expect(updated.invoice_settings.default_payment_method).toMatch(/^pm_/);
    });

    it('says what is wrong beside each field, in Japanese, and keeps no card number', async () => {
      const session = await checkoutSession();
      const empty = await pages.postForm(pathOf(session.url), {
        number: '',
        exp: '',
        cvc: '',
        name: '',
      });
      expect(empty.status).toBe(400);
      for (const message of [
        'カード番号を入力してください。',
        '有効期限を入力してください。',
        'セキュリティコードを入力してください。',
        'カード名義を入力してください。',
      ]) {
        expect(empty.text).toContain(message);
      }
      expect(empty.text).toContain('role="alert"');
      expect(empty.text).toContain('href="#card-number"');
      expect(empty.text).toMatch(
        /aria-describedby="card-number-hint card-number-error"[^>]*aria-invalid="true"/,
      );
      await expectSandboxPage(empty);

      const wrong = await pages.postForm(pathOf(session.url), {
        number: '4242 4242 4242 4241',
        exp: '13/30',
        cvc: '12',
        name: 'TARO',
      });
      await expectSandboxPage(wrong, {
        shows: [
          '有効期限の月が正しくありません。',
          'セキュリティコードは3桁または4桁の数字で入力してください。',
          'value="13/30"',
        ],
      });
      expect(wrong.text).not.toContain('4241');

      // A number that fails the Luhn check is the API's invalid_number, said beside the field.
      const luhn = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4241'));
      expect(luhn.status).toBe(402);
      expect(luhn.text).toMatch(/id="card-number-error">カード番号が正しくありません。/);

      const expired = await pages.postForm(pathOf(session.url), {
        ...cardFields('4242424242424242'),
        exp: '01/20',
      });
      expect(expired.text).toContain('有効期限が切れています。');
      expect((await pages.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    });

    it('declines 4000 0000 0000 0002 and leaves nothing behind', async () => {
      const session = await checkoutSession();
      const before = {
        customers: await countOf('customer'),
        paymentMethods: await countOf('payment_method'),
        subscriptions: await countOf('subscription'),
      };
      const page = await pages.postForm(pathOf(session.url), cardFields('4000 0000 0000 0002'));
      expect(page.status).toBe(402);
      expect(page.text).toContain('カードが拒否されました。別のカードをお試しください。');
      await expectSandboxPage(page);
      expect({
        customers: await countOf('customer'),
        paymentMethods: await countOf('payment_method'),
        subscriptions: await countOf('subscription'),
      }).toEqual(before);
      expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'open',
        customer: null,
        subscription: null,
      });
      // The same page then takes a good card.
      const retried = await pages.postForm(pathOf(session.url), cardFields('4242424242424242'));
      expect(retried.status).toBe(303);
    });

    it('starts one subscription for a double submit', async () => {
      const session = await checkoutSession({ customer_email: 'double@example.jp' });
      const [first, second] = await Promise.all([
        pages.postForm(pathOf(session.url), cardFields('4242424242424242')),
        pages.postForm(pathOf(session.url), cardFields('4242424242424242')),
      ]);
      expect([first?.status, second?.status]).toEqual([303, 303]);
      expect(second?.location).toBe(first?.location);
      const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
      const subscriptions = await pages.stripe.subscriptions.list({
        customer: completed.customer as string,
        status: 'all',
      });
      expect(subscriptions.data).toHaveLength(1);
      expect(
        await eventsOfType(pages.stripe, 'checkout.session.completed', session.id),
      ).toHaveLength(1);
      const customers = await pages.stripe.customers.list({ email: 'double@example.jp' });
      expect(customers.data).toHaveLength(1);
    });

    it('shows an expired session as such and takes no card on it', async () => {
      const session = await checkoutSession({ customer_email: 'late@example.jp' });
      const stored = await findObject(pages.database.db, 'checkout.session', session.id);
      await saveObject(pages.database.db, {
        ...stored!,
        expires_at: Math.floor(Date.now() / 1000) - 1,
      });

      const page = await pages.fetchPage(pathOf(session.url));
      expect(page.status).toBe(410);
      expect(page.text).toContain('有効期限が切れています');
      expect(page.text).toContain(`href="${CANCEL_URL}"`);
      await expectSandboxPage(page);
      const posted = await pages.postForm(pathOf(session.url), cardFields('4242424242424242'));
      expect(posted.status).toBe(410);
      expect(await pages.stripe.customers.list({ email: 'late@example.jp' })).toMatchObject({
        data: [],
      });
      expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'expired',
        url: null,
      });
      expect(await eventsOfType(pages.stripe, 'checkout.session.expired', session.id)).toHaveLength(
        1,
      );
      expect((await pages.fetchPage('/billing-sandbox/checkout/cs_test_missing')).status).toBe(404);
    });

    it('refuses a post from another site, another encoding or a large body', async () => {
      const session = await checkoutSession({ customer_email: 'csrf@example.jp' });
      const path = pathOf(session.url);
      const crossSite = await pages.postForm(path, cardFields('4242424242424242'), {
        origin: 'https://attacker.example',
      });
      expect(crossSite.status).toBe(403);
      expect(crossSite.text).toContain('別のサイトからの送信は受け付けられません。');
      const opaque = await pages.postForm(path, cardFields('4242424242424242'), { origin: 'null' });
      expect(opaque.status).toBe(403);
      const json = await pages.fetchPage(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: pages.base },
        body: JSON.stringify(cardFields('4242424242424242')),
      });
      expect(json.status).toBe(415);
      const large = await pages.postForm(path, {
        ...cardFields('4242424242424242'),
        pad: 'x'.repeat(20_000),
      });
      expect(large.status).toBe(413);
      const put = await pages.fetchPage(path, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(await pages.stripe.customers.list({ email: 'csrf@example.jp' })).toMatchObject({
        data: [],
      });
      expect((await pages.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    });

    it('needs no API key for the pages, and still one for the API', async () => {
      const session = await checkoutSession();
      expect((await pages.fetchPage(pathOf(session.url))).status).toBe(200);
      const api = await fetch(`${pages.base}/billing-sandbox/v1/checkout/sessions/${session.id}`);
      expect(api.status).toBe(401);
    });
  });

  it('keeps no card number or security code anywhere', async () => {
    await expectNoCardNumberStored(pages.database);
  });
});
