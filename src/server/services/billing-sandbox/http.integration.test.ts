import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { SANDBOX_API_VERSION } from './http';
import { ROUTES } from './routes';
import { sandboxSecretKey } from './secret-key';
import { useSandbox } from '@test-support/billing-sandbox';

/** The sandbox over real HTTP, driven by the official SDK exactly as the app will drive it. */
describe('billing sandbox over HTTP with the stripe SDK', () => {
  const sandbox = useSandbox();
  let database: Database;
  let port: number;
  let key: string;
  let stripe: Stripe;
  const client = (apiKey: string) => sandbox.client(apiKey);

  const raw = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(() => {
    ({ database, port, key, stripe } = sandbox);
  });

  it('makes its secret key once and keeps it', async () => {
    expect(key).toMatch(/^sk_test_[0-9a-f]{48}$/);
    expect(await sandboxSecretKey(database.db)).toBe(key);
  });

  it('refuses a wrong or missing key with StripeAuthenticationError', async () => {
    await expect(client('sk_test_wrong').products.list()).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    const missing = await fetch(`http://127.0.0.1:${port}/billing-sandbox/v1/products`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('creates, retrieves, updates and lists products', async () => {
    const product = await stripe.products.create({
      name: 'AXIS 月額プラン',
      metadata: { plan: 'monthly' },
    });
    expect(product).toMatchObject({
      object: 'product',
      active: true,
      livemode: false,
      name: 'AXIS 月額プラン',
      metadata: { plan: 'monthly' },
      default_price: null,
      images: [],
    });
    expect(product.id).toMatch(/^prod_/);
    expect(product.lastResponse.apiVersion).toBe(SANDBOX_API_VERSION);
    expect(await stripe.products.retrieve(product.id)).toMatchObject({ id: product.id });

    const updated = await stripe.products.update(product.id, {
      active: false,
      metadata: { plan: '', tier: 'a' },
    });
    expect(updated).toMatchObject({ active: false, metadata: { tier: 'a' } });
    const inactive = await stripe.products.list({ active: false });
    expect(inactive.data.map((p) => p.id)).toContain(product.id);
    const active = await stripe.products.list({ active: true });
    expect(active.data.map((p) => p.id)).not.toContain(product.id);
  });

  it('creates JPY prices with lookup keys and finds them by lookup_keys', async () => {
    const product = await stripe.products.create({ id: 'prod_membership', name: '会員' });
    /** A recurring yen price of the product with that lookup key. */
    const price = (
      unit_amount: number,
      interval: Stripe.PriceCreateParams.Recurring.Interval,
      lookup_key: string,
      more: Partial<Stripe.PriceCreateParams> = {},
    ) =>
      stripe.prices.create({
        product: product.id,
        currency: 'jpy',
        unit_amount,
        recurring: { interval },
        lookup_key,
        ...more,
      });
    const monthly = await price(1100, 'month', 'membership_monthly', {
      tax_behavior: 'inclusive',
    });
    expect(monthly).toMatchObject({
      object: 'price',
      currency: 'jpy',
      unit_amount: 1100,
      type: 'recurring',
      recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
      lookup_key: 'membership_monthly',
      product: 'prod_membership',
      tax_behavior: 'inclusive',
    });
    // Sent as the string "1100"; the SDK turns decimal strings into its Decimal type.
    expect(String(monthly.unit_amount_decimal)).toBe('1100');
    const yearly = await price(11000, 'year', 'membership_yearly');

    const found = await stripe.prices.list({
      lookup_keys: ['membership_monthly', 'membership_yearly'],
      expand: ['data.product'],
    });
    expect(found.data.map((p) => p.id)).toEqual([yearly.id, monthly.id]);
    expect((found.data[0]?.product as Stripe.Product).name).toBe('会員');

    await expect(price(990, 'month', 'membership_monthly')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'lookup_key',
    });
    const moved = await price(990, 'month', 'membership_monthly', { transfer_lookup_key: true });
    expect((await stripe.prices.retrieve(monthly.id)).lookup_key).toBeNull();
    const now = await stripe.prices.list({ lookup_keys: ['membership_monthly'] });
    expect(now.data.map((p) => p.id)).toEqual([moved.id]);

    const retired = await stripe.prices.update(moved.id, { active: false });
    expect(retired.active).toBe(false);
    const byProduct = await stripe.prices.list({ product: product.id, active: true });
    expect(byProduct.data.map((p) => p.id).sort()).toEqual([monthly.id, yearly.id].sort());

    const expanded = await stripe.prices.retrieve(yearly.id, { expand: ['product'] });
    expect(expanded.product).toMatchObject({ object: 'product', id: 'prod_membership' });
  });

  it('gives a lookup key to one of several concurrent creates', async () => {
    const results = await Promise.allSettled(
      [500, 600, 700].map((amount) =>
        stripe.prices.create({
          product: 'prod_membership',
          currency: 'jpy',
          unit_amount: amount,
          lookup_key: 'race_key',
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({ code: 'lookup_key_already_exists' });
    }
    expect((await stripe.prices.list({ lookup_keys: ['race_key'] })).data).toHaveLength(1);
  });

  it('refuses unknown parameters, bad expansions and missing objects as Stripe does', async () => {
    await expect(
      stripe.prices.create({ product: 'prod_nope', currency: 'jpy', unit_amount: 100 }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      param: 'product',
      statusCode: 404,
    });
    await expect(stripe.customers.retrieve('cus_missing')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      statusCode: 404,
    });
    await expect(
      stripe.products.create({ name: 'x', nmae: 'y' } as Stripe.ProductCreateParams),
    ).rejects.toMatchObject({ code: 'parameter_unknown', param: 'nmae' });
    // Stripe's rule for the ids a caller gives: only what the sandbox can find again.
    await expect(stripe.products.create({ id: 'prod a', name: 'x' })).rejects.toMatchObject({
      statusCode: 400,
      param: 'id',
    });
    await expect(
      stripe.coupons.create({ id: 'spring.2027', percent_off: 10 }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'id' });
    await expect(stripe.products.list({ expand: ['data.nothing'] })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      message: 'This property cannot be expanded (nothing).',
    });
  });

  it('answers unknown routes, malformed bodies and other API versions with Stripe errors', async () => {
    const unknown = await raw('/billing-sandbox/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(String((unknown.body.error as { message: string }).message)).toContain(
      'Unrecognized request URL (GET: /v1/nothing)',
    );
    const malformed = await raw('/v1/products', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=a&name=b',
    });
    expect(malformed.status).toBe(400);
    for (const body of ['metadata[%00]=x', 'email=a@example.jp&metadata[a%00b]=x', '%00=x']) {
      const refused = await raw('/v1/customers', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect({ body, status: refused.status }).toEqual({ body, status: 400 });
      expect(refused.body).toMatchObject({ error: { type: 'invalid_request_error' } });
    }
    const oldVersion = await raw('/v1/products', { headers: { 'stripe-version': '2022-11-15' } });
    expect(oldVersion.status).toBe(400);
    const badVersion = await raw('/v1/products', { headers: { 'stripe-version': 'latest!' } });
    expect(badVersion.body).toMatchObject({
      error: { message: 'Invalid Stripe API version: latest!' },
    });
  });

  /** Ids no object can have, as they stand in a path: NUL and other odd bytes, undecodable escapes. */
  const ODD_IDS = ['%00', 'cus_%00', '%01', 'a%20b', '%E2%80%AE', '%2F', '%ZZ'];
  /** What the routes that require a parameter are sent, so that only the id can be refused. */
  const REQUIRED: Record<string, string> = {
    'test_helpers/test_clocks/:id/advance': 'frozen_time=1780000000',
    'payment_methods/:id/attach': 'customer=cus_missing',
  };

  it('answers an id no object can have as an unknown id, on every route with an id', async () => {
    const withId = ROUTES.filter((route) => route.pattern.includes(':id'));
    expect(withId.length).toBeGreaterThan(20);
    const refused: unknown[] = [];
    for (const route of withId) {
      for (const id of ODD_IDS) {
        const path = route.pattern.map((part) => (part === ':id' ? id : part)).join('/');
        const answer = await raw(`/billing-sandbox/v1/${path}`, {
          method: route.method,
          ...(route.method === 'POST'
            ? {
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: REQUIRED[route.pattern.join('/')] ?? '',
              }
            : {}),
        });
        const { type, code } = answer.body.error as { type?: string; code?: string };
        refused.push({ path, status: answer.status, type, code });
      }
    }
    expect(refused).toEqual(
      refused.map((answer) => ({
        ...(answer as object),
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
      })),
    );
  });

  it('answers a page for an id no session can have with its 404 page', async () => {
    const pages = ['checkout/', 'portal/', 'authenticate/'].flatMap((page) =>
      ODD_IDS.map((id) => `/billing-sandbox/${page}${id}`),
    );
    for (const path of [...pages, '/billing-sandbox/portal/%00/cancel']) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          ...(method === 'POST'
            ? {
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: 'subscription=sub_1',
              }
            : {}),
        });
        expect({ path, method, status: response.status }).toEqual({ path, method, status: 404 });
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      }
    }
  });

  it('creates, updates and lists customers by e-mail', async () => {
    const customer = await stripe.customers.create({
      email: 'hanako@example.jp',
      name: '山田 花子',
      metadata: { userId: 'u1' },
    });
    expect(customer).toMatchObject({
      object: 'customer',
      email: 'hanako@example.jp',
      name: '山田 花子',
      metadata: { userId: 'u1' },
      balance: 0,
      delinquent: false,
      test_clock: null,
      invoice_settings: { default_payment_method: null },
    });
    expect(customer.id).toMatch(/^cus_/);
    await stripe.customers.create({ email: 'other@example.jp' });
    const updated = await stripe.customers.update(customer.id, { name: '山田 花', phone: '' });
    expect(updated).toMatchObject({ name: '山田 花', phone: null, email: 'hanako@example.jp' });
    const listed = await stripe.customers.list({ email: 'hanako@example.jp' });
    expect(listed.data.map((c) => c.id)).toEqual([customer.id]);
    expect(listed.url).toBe('/v1/customers');
  });

  it('pages lists with limit, starting_after and ending_before', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await stripe.customers.create({ email: `page${i}@example.jp` })).id);
    }
    const newestFirst = [...ids].reverse();
    const first = await stripe.customers.list({ limit: 2 });
    expect(first.data.map((c) => c.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await stripe.customers.list({ limit: 2, starting_after: newestFirst[1] });
    expect(second.data.map((c) => c.id)).toEqual(newestFirst.slice(2, 4));
    const back = await stripe.customers.list({ limit: 2, ending_before: newestFirst[2] });
    expect(back.data.map((c) => c.id)).toEqual(newestFirst.slice(0, 2));
    expect(back.has_more).toBe(false);

    const all: string[] = [];
    for await (const customer of stripe.customers.list({ limit: 3 })) all.push(customer.id);
    expect(all.slice(0, 5)).toEqual(newestFirst);
    expect(new Set(all).size).toBe(all.length);

    await expect(stripe.customers.list({ limit: 101 })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
    });
    await expect(stripe.customers.list({ starting_after: 'cus_gone' })).rejects.toMatchObject({
      code: 'resource_missing',
      param: 'starting_after',
    });
  });

  it('replays an idempotent POST and refuses the key with other parameters', async () => {
    const first = await stripe.customers.create(
      { email: 'idem@example.jp' },
      { idempotencyKey: 'signup-u42' },
    );
    const again = await stripe.customers.create(
      { email: 'idem@example.jp' },
      { idempotencyKey: 'signup-u42' },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await stripe.customers.list({ email: 'idem@example.jp' })).data).toHaveLength(1);

    await expect(
      stripe.customers.create({ email: 'else@example.jp' }, { idempotencyKey: 'signup-u42' }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('creates and advances test clocks, and keeps their customers apart', async () => {
    const start = 1_780_000_000;
    const clock = await stripe.testHelpers.testClocks.create({
      frozen_time: start,
      name: 'renewal',
    });
    expect(clock).toMatchObject({
      object: 'test_helpers.test_clock',
      frozen_time: start,
      status: 'ready',
      name: 'renewal',
      livemode: false,
    });
    expect(clock.id).toMatch(/^clock_/);
    const customer = await stripe.customers.create({
      email: 'clock@example.jp',
      test_clock: clock.id,
    });
    const withClock = await stripe.customers.retrieve(customer.id, { expand: ['test_clock'] });
    expect((withClock as Stripe.Customer).test_clock).toMatchObject({ id: clock.id });
    expect((await stripe.customers.list({ email: 'clock@example.jp' })).data).toHaveLength(0);
    expect((await stripe.customers.list({ test_clock: clock.id })).data.map((c) => c.id)).toEqual([
      customer.id,
    ]);

    const later = start + 32 * 24 * 60 * 60;
    const advanced = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: later });
    expect(advanced).toMatchObject({ frozen_time: later, status: 'ready' });
    expect((await stripe.testHelpers.testClocks.retrieve(clock.id)).frozen_time).toBe(later);
    await expect(
      stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'frozen_time' });
    const clocks = await stripe.testHelpers.testClocks.list();
    expect(clocks.data.map((c) => c.id)).toContain(clock.id);
  });
});
