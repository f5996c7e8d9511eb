import { createHash } from 'node:crypto';
import axe from 'axe-core';
import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/db/client';
import { billingSandboxObjects } from '@/server/db/schema';
import { findObject, saveObject } from './object-store';
import {
  type RunningSandbox,
  attachCard,
  customerWithCard,
  productWithPrices,
  startSandbox,
} from '@test-support/billing-sandbox';
import { DAY, utc } from '@test-support/unix-time';

/**
 * Checkout Sessions and Billing Portal sessions over the API (the official SDK), and the
 * sandbox's own checkout and portal pages driven as a browser without JavaScript would:
 * GET the page, POST its form, follow the 303.
 */

const SUCCESS_URL = 'https://axis.example.jp/membership/welcome?session_id={CHECKOUT_SESSION_ID}';
const CANCEL_URL = 'https://axis.example.jp/membership';
const RETURN_URL = 'https://axis.example.jp/account';

type Page = { status: number; headers: Headers; text: string; location: string | null };

/** axe-core's rules on a page, in jsdom (contrast is checked on the palette: styles.ts). */
async function axeViolations(markup: string): Promise<string[]> {
  // jsdom ships no types of its own; the little used here is typed by hand.
  const name = 'jsdom';
  const { JSDOM, VirtualConsole } = (await import(name)) as {
    JSDOM: new (
      html: string,
      options: object,
    ) => { window: Window & { eval(code: string): void; axe: typeof axe; close(): void } };
    VirtualConsole: new () => object;
  };
  const dom = new JSDOM(markup, {
    runScripts: 'outside-only',
    pretendToBeVisual: true,
    virtualConsole: new VirtualConsole(),
  });
  dom.window.eval(axe.source);
  const results = await dom.window.axe.run(dom.window.document, {
    resultTypes: ['violations'],
    rules: { 'color-contrast': { enabled: false } },
  });
  dom.window.close();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

describe('billing sandbox checkout sessions, portal sessions and their pages', () => {
  let sandbox: RunningSandbox;
  let database: Database;
  let stripe: Stripe;
  let base: string;
  let monthly: Stripe.Price;
  let premium: Stripe.Price;
  let yearly: Stripe.Price;
  let oneTime: Stripe.Price;

  beforeAll(async () => {
    sandbox = await startSandbox();
    ({ database, stripe } = sandbox);
    base = `http://127.0.0.1:${sandbox.port}`;
    const price = await productWithPrices(stripe, { id: 'prod_axis', name: 'AXIS 会員' });
    monthly = await price(1100, 'month');
    premium = await price(2200, 'month');
    yearly = await price(11000, 'year');
    oneTime = await stripe.prices.create({
      product: 'prod_axis',
      currency: 'jpy',
      unit_amount: 500,
    });
  });
  afterAll(() => sandbox.close());

  async function fetchPage(path: string, init: RequestInit = {}): Promise<Page> {
    const response = await fetch(path.startsWith('http') ? path : `${base}${path}`, {
      redirect: 'manual',
      ...init,
    });
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location'),
    };
  }

  /** A form post as a browser on the page sends it (same origin unless told). */
  function postForm(path: string, fields: Record<string, string>, headers: HeadersInit = {}) {
    return fetchPage(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: base,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  const card = (number: string) => ({
    number,
    exp: `12/${(new Date().getUTCFullYear() + 3) % 100}`,
    cvc: '123',
    name: 'TARO YAMADA',
  });

  const pathOf = (url: string | null) => new URL(url ?? '').pathname;

  function checkoutSession(params: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
    return stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id, quantity: 1 }],
      customer_email: 'member@example.jp',
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
      locale: 'ja',
      ...params,
    });
  }

  async function countOf(type: string): Promise<number> {
    const rows = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(billingSandboxObjects)
      .where(eq(billingSandboxObjects.type, type));
    return rows[0]?.count ?? 0;
  }

  async function eventsOfType(type: string, objectId: string): Promise<Stripe.Event[]> {
    const events: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ type, limit: 100 })) {
      if ((event.data.object as { id?: string }).id === objectId) events.push(event);
    }
    return events;
  }

  /** The customer's events, oldest first. */
  const eventsOf = (customerId: string) => sandbox.customerEvents(customerId);

  function expectPageHeaders(page: Page) {
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/form-action 'self'/);
    // The one stylesheet is allowed by its hash, and nothing is loaded from anywhere.
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(csp).toContain(`style-src 'sha256-${hash}'`);
    expect(page.text).not.toMatch(/<script|<link|<img|src=|url\(|style="/i);
  }

  /** Marked as a test environment, in Japanese, with one h1 inside <main>. */
  function expectTestPage(page: Page) {
    expect(page.text).toContain('<html lang="ja">');
    expect(page.text).toContain('テスト環境：実際のカードは使えません。請求は発生しません。');
    expect(page.text.match(/<h1/g)).toHaveLength(1);
    expect(page.text).toMatch(/<main>[\s\S]*<h1/);
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
        url: `${base}/billing-sandbox/checkout/${session.id}`,
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
      expect(await stripe.checkout.sessions.retrieve(session.id)).toEqual(
        expect.objectContaining({ id: session.id, status: 'open', url: session.url }),
      );
      const items = await stripe.checkout.sessions.listLineItems(session.id);
      expect(items.data).toHaveLength(1);
      expect(items.data[0]).toMatchObject({
        object: 'item',
        amount_total: 1100,
        amount_tax: 100,
        description: 'AXIS 会員',
        quantity: 1,
        price: { id: monthly.id },
      });
    });

    it('takes an existing customer and a trial (nothing due today)', async () => {
      const customer = await stripe.customers.create({ email: 'existing@example.jp' });
      const session = await checkoutSession({
        customer: customer.id,
        customer_email: undefined,
        subscription_data: { trial_period_days: 14 },
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
      const customer = await stripe.customers.create({ email: 'refused@example.jp' });
      const cases: [Partial<Stripe.Checkout.SessionCreateParams>, string | undefined, RegExp][] = [
        [{ mode: 'payment' }, 'mode', /subscription mode only/],
        [{ line_items: undefined }, 'line_items', /Missing required param/],
        [{ line_items: [{ price: oneTime.id, quantity: 1 }] }, 'line_items', /recurring price/],
        [{ line_items: [{ price: monthly.id, quantity: 2 }] }, 'line_items[0][quantity]', /1/],
        [
          {
            line_items: [
              { price: monthly.id, quantity: 1 },
              { price: premium.id, quantity: 1 },
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
        [{ payment_intent_data: { description: 'x' } }, 'payment_intent_data', /unknown parameter/],
      ];
      for (const [params, param, message] of cases) {
        const error = await refusal(params);
        expect(error, JSON.stringify(params)).toBeInstanceOf(Stripe.errors.StripeError);
        expect(error).toMatchObject({ param, message: expect.stringMatching(message) as string });
      }
      await expect(stripe.checkout.sessions.retrieve('cs_test_missing')).rejects.toMatchObject({
        statusCode: 404,
        code: 'resource_missing',
      });
    });

    it('expires an open session once, with its event, and lists by status', async () => {
      const session = await checkoutSession();
      const expired = await stripe.checkout.sessions.expire(session.id);
      expect(expired).toMatchObject({ status: 'expired', url: null, payment_status: 'unpaid' });
      await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
        message:
          'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `expired`.',
      });
      expect(await eventsOfType('checkout.session.expired', session.id)).toHaveLength(1);
      const listed = await stripe.checkout.sessions.list({ status: 'expired', limit: 100 });
      expect(listed.data.map((item) => item.id)).toContain(session.id);
      const open = await stripe.checkout.sessions.list({ status: 'open', limit: 100 });
      expect(open.data.map((item) => item.id)).not.toContain(session.id);
    });
  });

  describe('the checkout page', () => {
    it('shows the plan, the e-mail and an accessible card form, marked as a test', async () => {
      const session = await checkoutSession();
      const page = await fetchPage(pathOf(session.url));
      expect(page.status).toBe(200);
      expectPageHeaders(page);
      expectTestPage(page);
      // A post may end at the success_url's origin: CSP's form-action allows it.
      expect(page.headers.get('content-security-policy')).toContain(
        "form-action 'self' https://axis.example.jp",
      );
      expect(page.text).toContain('AXIS 会員');
      expect(page.text).toContain('¥1,100（税込）／月');
      expect(page.text).toContain('member@example.jp');
      expect(page.text).toContain('4242 4242 4242 4242');
      expect(page.text).toContain('4000 0000 0000 0002');
      expect(page.text).toContain('4000 0000 0000 0341');
      for (const autocomplete of ['cc-number', 'cc-exp', 'cc-csc', 'cc-name']) {
        expect(page.text).toContain(`autocomplete="${autocomplete}"`);
      }
      expect(page.text.match(/inputmode="numeric"/g)).toHaveLength(3);
      expect(page.text).toMatch(
        /<form[^>]+method="post"[^>]+action="\/billing-sandbox\/checkout\//,
      );
      expect(page.text).toContain('申し込む');
      expect(page.text).toContain(`href="${CANCEL_URL}"`);
      expect(await axeViolations(page.text)).toEqual([]);
    });

    it('shows a trial as days free, then the price, with the date of the first charge', async () => {
      const session = await checkoutSession({ subscription_data: { trial_period_days: 14 } });
      const page = await fetchPage(pathOf(session.url));
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
      expect(await axeViolations(page.text)).toEqual([]);
    });

    it('completes with 4242: subscription active, session complete, event, redirect', async () => {
      const session = await checkoutSession({
        subscription_data: { metadata: { source: 'checkout' } },
      });
      const page = await postForm(pathOf(session.url), card('4242 4242 4242 4242'));
      expect(page.status).toBe(303);
      expect(page.location).toBe(
        `https://axis.example.jp/membership/welcome?session_id=${session.id}`,
      );

      const completed = await stripe.checkout.sessions.retrieve(session.id, {
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
      expect(subscription.items.data[0]?.price.id).toBe(monthly.id);
      const customer = (await stripe.customers.retrieve(
        completed.customer as string,
      )) as Stripe.Customer;
      expect(customer.email).toBe('member@example.jp');
      const card4242 = await stripe.paymentMethods.retrieve(
        customer.invoice_settings.default_payment_method as string,
      );
      expect(card4242).toMatchObject({ customer: customer.id, card: { last4: '4242' } });
      expect(await stripe.invoices.retrieve(completed.invoice as string)).toMatchObject({
        status: 'paid',
        amount_paid: 1100,
      });
      const events = await eventsOfType('checkout.session.completed', session.id);
      expect(events).toHaveLength(1);
      expect(events[0]?.data.object).toMatchObject({
        status: 'complete',
        subscription: subscription.id,
      });

      const bySubscription = await stripe.checkout.sessions.list({ subscription: subscription.id });
      expect(bySubscription.data.map((item) => item.id)).toEqual([session.id]);
      const byCustomer = await stripe.checkout.sessions.list({ customer: customer.id });
      expect(byCustomer.data.map((item) => item.id)).toEqual([session.id]);

      // The page of a completed session says so and links to the success_url.
      const after = await fetchPage(pathOf(session.url));
      expect(after.status).toBe(200);
      expect(after.text).toContain('お申し込みは完了しています');
      expect(after.text).toContain(
        `href="https://axis.example.jp/membership/welcome?session_id=${session.id}"`,
      );
      expectTestPage(after);
      expect(await axeViolations(after.text)).toEqual([]);
    });

    it('completes a trial for an existing customer: trialing, no payment required', async () => {
      const customer = await stripe.customers.create({ email: 'trial@example.jp' });
      const session = await checkoutSession({
        customer: customer.id,
        customer_email: undefined,
        subscription_data: { trial_period_days: 14 },
      });
      const page = await postForm(pathOf(session.url), card('4000000000000341'));
      expect(page.status).toBe(303);
      const completed = await stripe.checkout.sessions.retrieve(session.id);
      expect(completed).toMatchObject({
        status: 'complete',
        payment_status: 'no_payment_required',
        customer: customer.id,
      });
      const subscription = await stripe.subscriptions.retrieve(completed.subscription as string);
      expect(subscription.status).toBe('trialing');
      expect((subscription.trial_end ?? 0) - (subscription.trial_start ?? 0)).toBe(14 * DAY);
      expect(await countOf('customer')).toBeGreaterThan(0);
      const updated = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
      expect(updated.invoice_settings.default_payment_method).toMatch(/^pm_/);
    });

    it('says what is wrong beside each field, in Japanese, and keeps no card number', async () => {
      const session = await checkoutSession();
      const empty = await postForm(pathOf(session.url), { number: '', exp: '', cvc: '', name: '' });
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
      expect(await axeViolations(empty.text)).toEqual([]);

      const wrong = await postForm(pathOf(session.url), {
        number: '4242 4242 4242 4241',
        exp: '13/30',
        cvc: '12',
        name: 'TARO',
      });
      expect(wrong.text).toContain('有効期限の月が正しくありません。');
      expect(wrong.text).toContain('セキュリティコードは3桁または4桁の数字で入力してください。');
      expect(wrong.text).toContain('value="13/30"');
      expect(wrong.text).not.toContain('4241');

      // A number that fails the Luhn check is the API's invalid_number, said beside the field.
      const luhn = await postForm(pathOf(session.url), card('4242 4242 4242 4241'));
      expect(luhn.status).toBe(402);
      expect(luhn.text).toMatch(/id="card-number-error">カード番号が正しくありません。/);

      const expired = await postForm(pathOf(session.url), {
        ...card('4242424242424242'),
        exp: '01/20',
      });
      expect(expired.text).toContain('有効期限が切れています。');
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    });

    it('declines 4000 0000 0000 0002 and leaves nothing behind', async () => {
      const session = await checkoutSession();
      const before = {
        customers: await countOf('customer'),
        paymentMethods: await countOf('payment_method'),
        subscriptions: await countOf('subscription'),
      };
      const page = await postForm(pathOf(session.url), card('4000 0000 0000 0002'));
      expect(page.status).toBe(402);
      expect(page.text).toContain('カードが拒否されました。別のカードをお試しください。');
      expectTestPage(page);
      expect(await axeViolations(page.text)).toEqual([]);
      expect({
        customers: await countOf('customer'),
        paymentMethods: await countOf('payment_method'),
        subscriptions: await countOf('subscription'),
      }).toEqual(before);
      expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'open',
        customer: null,
        subscription: null,
      });
      // The same page then takes a good card.
      const retried = await postForm(pathOf(session.url), card('4242424242424242'));
      expect(retried.status).toBe(303);
    });

    it('starts one subscription for a double submit', async () => {
      const session = await checkoutSession({ customer_email: 'double@example.jp' });
      const [first, second] = await Promise.all([
        postForm(pathOf(session.url), card('4242424242424242')),
        postForm(pathOf(session.url), card('4242424242424242')),
      ]);
      expect([first?.status, second?.status]).toEqual([303, 303]);
      expect(second?.location).toBe(first?.location);
      const completed = await stripe.checkout.sessions.retrieve(session.id);
      const subscriptions = await stripe.subscriptions.list({
        customer: completed.customer as string,
        status: 'all',
      });
      expect(subscriptions.data).toHaveLength(1);
      expect(await eventsOfType('checkout.session.completed', session.id)).toHaveLength(1);
      const customers = await stripe.customers.list({ email: 'double@example.jp' });
      expect(customers.data).toHaveLength(1);
    });

    it('shows an expired session as such and takes no card on it', async () => {
      const session = await checkoutSession({ customer_email: 'late@example.jp' });
      const stored = await findObject(database.db, 'checkout.session', session.id);
      await saveObject(database.db, { ...stored!, expires_at: Math.floor(Date.now() / 1000) - 1 });

      const page = await fetchPage(pathOf(session.url));
      expect(page.status).toBe(410);
      expect(page.text).toContain('有効期限が切れています');
      expect(page.text).toContain(`href="${CANCEL_URL}"`);
      expectTestPage(page);
      expect(await axeViolations(page.text)).toEqual([]);
      const posted = await postForm(pathOf(session.url), card('4242424242424242'));
      expect(posted.status).toBe(410);
      expect(await stripe.customers.list({ email: 'late@example.jp' })).toMatchObject({ data: [] });
      expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'expired',
        url: null,
      });
      expect(await eventsOfType('checkout.session.expired', session.id)).toHaveLength(1);
      expect((await fetchPage('/billing-sandbox/checkout/cs_test_missing')).status).toBe(404);
    });

    it('refuses a post from another site, another encoding or a large body', async () => {
      const session = await checkoutSession({ customer_email: 'csrf@example.jp' });
      const path = pathOf(session.url);
      const crossSite = await postForm(path, card('4242424242424242'), {
        origin: 'https://attacker.example',
      });
      expect(crossSite.status).toBe(403);
      expect(crossSite.text).toContain('別のサイトからの送信は受け付けられません。');
      const opaque = await postForm(path, card('4242424242424242'), { origin: 'null' });
      expect(opaque.status).toBe(403);
      const json = await fetchPage(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify(card('4242424242424242')),
      });
      expect(json.status).toBe(415);
      const large = await postForm(path, { ...card('4242424242424242'), pad: 'x'.repeat(20_000) });
      expect(large.status).toBe(413);
      const put = await fetchPage(path, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(await stripe.customers.list({ email: 'csrf@example.jp' })).toMatchObject({ data: [] });
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    });

    it('needs no API key for the pages, and still one for the API', async () => {
      const session = await checkoutSession();
      expect((await fetchPage(pathOf(session.url))).status).toBe(200);
      const api = await fetch(`${base}/billing-sandbox/v1/checkout/sessions/${session.id}`);
      expect(api.status).toBe(401);
    });
  });

  describe('the Billing Portal session API', () => {
    it('creates a portal session in Stripe’s shape', async () => {
      const customer = await stripe.customers.create({ email: 'portal@example.jp' });
      const session = await stripe.billingPortal.sessions.create({
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
        url: `${base}/billing-sandbox/portal/${session.id}`,
      });
      expect(
        await stripe.billingPortal.sessions.create({
          customer: customer.id,
          configuration: 'bpc_sandbox_default',
        }),
      ).toMatchObject({ return_url: null, locale: null });
    });

    it('refuses a missing or unknown customer and an unknown configuration', async () => {
      const customer = await stripe.customers.create({});
      await expect(stripe.billingPortal.sessions.create({})).rejects.toMatchObject({
        param: 'customer',
        code: 'parameter_missing',
      });
      await expect(
        stripe.billingPortal.sessions.create({ customer: 'cus_missing' }),
      ).rejects.toMatchObject({ statusCode: 404, param: 'customer' });
      await expect(
        stripe.billingPortal.sessions.create({ customer: customer.id, configuration: 'bpc_other' }),
      ).rejects.toMatchObject({ statusCode: 404, param: 'configuration' });
      await expect(
        stripe.billingPortal.sessions.create({
          customer: customer.id,
          flow_data: { type: 'payment_method_update' },
        }),
      ).rejects.toMatchObject({ param: 'flow_data' });
    });
  });

  describe('the portal page', () => {
    /** Two customers on clocks frozen at the same time, each with the same subscription. */
    async function twins(start: number, price: Stripe.Price, number = '4242424242424242') {
      const make = async (name: string) => {
        const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
        const customer = await customerWithCard(
          stripe,
          { email: `${name}-${clock.id}@example.jp`, test_clock: clock.id },
          number,
        );
        const subscription = await stripe.subscriptions.create({
          customer: customer.id,
          items: [{ price: price.id }],
        });
        return { clock, customer, subscription };
      };
      return { portal: await make('portal'), api: await make('api') };
    }

    async function portalFor(customerId: string) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: RETURN_URL,
      });
      return { session, path: pathOf(session.url) };
    }

    /** What the portal and the API must agree on, and the customer's events since `from`. */
    async function stateOf(customerId: string, subscriptionId: string, from: number) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
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
      const { portal } = await twins(start, monthly);
      const { session, path } = await portalFor(portal.customer.id);
      const page = await fetchPage(path);
      expect(page.status).toBe(200);
      expectPageHeaders(page);
      expectTestPage(page);
      expect(page.text).toContain('ご契約の管理');
      expect(page.text).toContain('AXIS 会員');
      expect(page.text).toContain('¥1,100（税込）／月');
      expect(page.text).toContain('有効');
      expect(page.text).toContain('2027年5月1日');
      expect(page.text).toContain('Visa 末尾 4242');
      expect(page.text).toMatch(
        /<td>2027年4月1日<\/td>\s*<td>[A-F0-9]{8}-0001<\/td>\s*<td class="number">\s*¥1,100\s*<\/td>\s*<td>支払い済み<\/td>/,
      );
      expect(page.text).toContain(`href="${RETURN_URL}"`);
      expect(page.text).toContain('AXIS 会員（¥2,200（税込）／月）');
      expect(page.text).toContain('AXIS 会員（¥11,000（税込）／年）');
      expect(await axeViolations(page.text)).toEqual([]);
      expect(session.url).toBe(`${base}${path}`);
    });

    it('cancels at period end after a confirmation, and resumes, as the API does', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, monthly);
      const from = (await eventsOf(portal.customer.id)).length;
      const { path } = await portalFor(portal.customer.id);

      const home = await fetchPage(path);
      const confirmHref = /href="([^"]*\/cancel\?subscription=[^"]+)"/.exec(home.text)?.[1];
      expect(confirmHref).toBe(`${path}/cancel?subscription=${portal.subscription.id}`);
      const confirm = await fetchPage(confirmHref ?? '');
      expect(confirm.status).toBe(200);
      expect(confirm.text).toContain('解約の確認');
      expect(confirm.text).toContain('2027年5月1日までご利用いただけます。');
      expectTestPage(confirm);
      expect(await axeViolations(confirm.text)).toEqual([]);

      const canceled = await postForm(`${path}/cancel`, { subscription: portal.subscription.id });
      expect(canceled.status).toBe(303);
      expect(canceled.location).toBe(`${base}${path}?message=canceled`);
      await stripe.subscriptions.update(api.subscription.id, { cancel_at_period_end: true });
      const afterCancel = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(afterCancel.subscription).toMatchObject({
        cancel_at_period_end: true,
        cancel_at: utc(2027, 5, 1),
        canceled_at: start,
      });
      expect(afterCancel).toEqual(await stateOf(api.customer.id, api.subscription.id, from));

      const shown = await fetchPage(canceled.location ?? '');
      expect(shown.text).toMatch(/<p class="status" role="status">解約を受け付けました。/);
      expect(shown.text).toContain('キャンセル予定（2027年5月1日まで利用可能）');
      expect(shown.text).toContain('解約を取り消す');
      expect(await axeViolations(shown.text)).toEqual([]);

      const resumed = await postForm(`${path}/resume`, { subscription: portal.subscription.id });
      expect(resumed.location).toBe(`${base}${path}?message=resumed`);
      await stripe.subscriptions.update(api.subscription.id, { cancel_at_period_end: false });
      const afterResume = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(afterResume.subscription).toMatchObject({
        cancel_at_period_end: false,
        cancel_at: null,
      });
      expect(afterResume).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
    });

    it('changes the plan at once without prorations, as the API does with none', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, monthly);
      await stripe.testHelpers.testClocks.advance(portal.clock.id, {
        frozen_time: start + 10 * DAY,
      });
      await stripe.testHelpers.testClocks.advance(api.clock.id, { frozen_time: start + 10 * DAY });
      const from = (await eventsOf(portal.customer.id)).length;
      const { path } = await portalFor(portal.customer.id);

      const changed = await postForm(`${path}/change`, {
        subscription: portal.subscription.id,
        price: premium.id,
      });
      expect(changed.location).toBe(`${base}${path}?message=changed`);
      await stripe.subscriptions.update(api.subscription.id, {
        items: [{ id: api.subscription.items.data[0]?.id, price: premium.id }],
        proration_behavior: 'none',
      });
      const samePeriod = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(samePeriod.subscription).toMatchObject({
        price: premium.id,
        period: [start, utc(2027, 5, 1)],
      });
      expect(samePeriod).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
      expect(samePeriod.events.map(([type]) => type)).toEqual(['customer.subscription.updated']);

      // Monthly to yearly: a new period from now, billed at once.
      await postForm(`${path}/change`, { subscription: portal.subscription.id, price: yearly.id });
      await stripe.subscriptions.update(api.subscription.id, {
        items: [{ id: api.subscription.items.data[0]?.id, price: yearly.id }],
        proration_behavior: 'none',
      });
      const yearlyState = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(yearlyState.subscription.period).toEqual([start + 10 * DAY, utc(2028, 4, 11)]);
      expect(yearlyState).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
      const invoice = await stripe.invoices.retrieve(
        (await stripe.subscriptions.retrieve(portal.subscription.id)).latest_invoice as string,
      );
      expect(invoice).toMatchObject({
        billing_reason: 'subscription_update',
        total: 11000,
        status: 'paid',
      });

      // A price that is not on offer (one-time, or the current one) changes nothing.
      const refused = await postForm(`${path}/change`, {
        subscription: portal.subscription.id,
        price: oneTime.id,
      });
      expect(refused.location).toBe(`${base}${path}?message=failed`);
    });

    it('replaces the card and pays a past_due invoice, as the API does', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, monthly, '4000000000000341');
      for (const { clock } of [portal, api]) {
        await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 1) });
      }
      expect((await stripe.subscriptions.retrieve(portal.subscription.id)).status).toBe('past_due');
      const from = (await eventsOf(portal.customer.id)).length;
      const { path } = await portalFor(portal.customer.id);
      const home = await fetchPage(path);
      expect(home.text).toContain('支払いに失敗しました');
      expect(home.text).toContain('未払い');

      const cardPage = await fetchPage(`${path}/card`);
      expect(cardPage.status).toBe(200);
      expectTestPage(cardPage);
      expect(cardPage.text).toContain('Visa 末尾 0341');
      expect(await axeViolations(cardPage.text)).toEqual([]);

      const declined = await postForm(`${path}/card`, card('4000000000000002'));
      expect(declined.status).toBe(402);
      expect(declined.text).toContain('カードが拒否されました。別のカードをお試しください。');
      expect(await axeViolations(declined.text)).toEqual([]);

      const updated = await postForm(`${path}/card`, card('4242424242424242'));
      expect(updated.location).toBe(`${base}${path}?message=card_updated_paid`);
      const pm = await attachCard(stripe, api.customer.id);
      const apiSubscription = await stripe.subscriptions.retrieve(api.subscription.id);
      await stripe.invoices.pay(apiSubscription.latest_invoice as string, {
        payment_method: pm.id,
      });

      const portalState = await stateOf(portal.customer.id, portal.subscription.id, from);
      expect(portalState.subscription.status).toBe('active');
      expect(portalState).toEqual(await stateOf(api.customer.id, api.subscription.id, from));
      const customer = (await stripe.customers.retrieve(portal.customer.id)) as Stripe.Customer;
      const defaultCard = await stripe.paymentMethods.retrieve(
        customer.invoice_settings.default_payment_method as string,
      );
      expect(defaultCard.card?.last4).toBe('4242');
      const shown = await fetchPage(updated.location ?? '');
      expect(shown.text).toContain('カードを変更し、未払いの請求をお支払いしました。');
    });

    it('acts only on the customer’s own subscriptions, and only from its own pages', async () => {
      const start = utc(2027, 4, 1);
      const { portal, api } = await twins(start, monthly);
      const { path } = await portalFor(portal.customer.id);
      const other = await postForm(`${path}/cancel`, { subscription: api.subscription.id });
      expect(other.status).toBe(404);
      const crossSite = await postForm(
        `${path}/cancel`,
        { subscription: portal.subscription.id },
        { origin: 'https://attacker.example' },
      );
      expect(crossSite.status).toBe(403);
      for (const id of [portal.subscription.id, api.subscription.id]) {
        expect((await stripe.subscriptions.retrieve(id)).cancel_at_period_end).toBe(false);
      }
      expect((await fetchPage(`${path}/unknown`)).status).toBe(404);
      expect((await fetchPage('/billing-sandbox/portal/bps_missing')).status).toBe(404);
    });

    it('shows an expired portal session as such, with the way back', async () => {
      const start = utc(2027, 4, 1);
      const { portal } = await twins(start, monthly);
      const { session, path } = await portalFor(portal.customer.id);
      const stored = await findObject(database.db, 'billing_portal.session', session.id);
      await saveObject(database.db, { ...stored!, created: stored!.created - 60 * 60 });
      const page = await fetchPage(path);
      expect(page.status).toBe(410);
      expect(page.text).toContain('有効期限が切れています');
      expect(page.text).toContain(`href="${RETURN_URL}"`);
      expectTestPage(page);
      expect(await axeViolations(page.text)).toEqual([]);
      const posted = await postForm(`${path}/cancel`, { subscription: portal.subscription.id });
      expect(posted.status).toBe(410);
      expect(
        (await stripe.subscriptions.retrieve(portal.subscription.id)).cancel_at_period_end,
      ).toBe(false);
    });
  });

  it('keeps no card number or security code anywhere', async () => {
    const rows = await database.db
      .select({ data: billingSandboxObjects.data })
      .from(billingSandboxObjects);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain('4242424242424242');
    expect(stored).not.toContain('4242 4242 4242 4242');
  });
});
