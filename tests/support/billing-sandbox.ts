import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { createTestDatabase } from './db/test-database';
import { sendWebResponse, toWebRequest } from '@/server/features/front/node-bridge';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { pathPrefixHttpClient } from '@/server/services/billing-sandbox/path-prefix-http-client';
import { sandboxSecretKey } from '@/server/services/billing-sandbox/secret-key';

/**
 * Test helper: the sandbox on a test database behind a real http.Server on 127.0.0.1, and the
 * official SDK pointed at it exactly as the app points it (under /billing-sandbox).
 */
export type RunningSandbox = {
  database: Database;
  port: number;
  key: string;
  stripe: Stripe;
  /** An SDK client with another key (a wrong one, say). */
  client: (apiKey: string) => Stripe;
  close: () => Promise<void>;
  /** A customer on a test clock of its own frozen at `start`, with that test card (or none). */
  clockedCustomer: (
    start: number,
    card?: string | null,
  ) => Promise<{ clock: Stripe.TestHelpers.TestClock; customer: Stripe.Customer }>;
  /** A clocked customer (as clockedCustomer) with a subscription made with those parameters. */
  subscribedCustomer: (
    start: number,
    card: string | null | undefined,
    params: Omit<Stripe.SubscriptionCreateParams, 'customer'>,
  ) => Promise<{
    clock: Stripe.TestHelpers.TestClock;
    customer: Stripe.Customer;
    created: Stripe.Subscription;
  }>;
  /** The events whose object belongs to the customer, oldest first. */
  customerEvents: (customerId: string) => Promise<Stripe.Event[]>;
};

/**
 * What `start` makes, made before this test file's tests and closed after them. Its fields are
 * read when used, so the returned object can stand at the top of the describe block (as
 * testDatabase() does for a database).
 */
export function startedForFile<T extends object>(
  start: () => Promise<T>,
  close: (started: T) => Promise<unknown>,
): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(() => (current ? close(current) : undefined));
  return new Proxy({} as T, {
    get(_, field) {
      if (!current) throw new Error('the sandbox is started in beforeAll');
      return current[field as keyof T];
    },
  });
}

/** The sandbox of this test file (startSandbox), started before its tests, closed after them. */
export function useSandbox(): RunningSandbox {
  return startedForFile(startSandbox, (sandbox) => sandbox.close());
}

export async function startSandbox(): Promise<RunningSandbox> {
  const database = await createTestDatabase();
  const server = http.createServer((req, res) => {
    void handleBillingSandbox(toWebRequest(req, `http://${req.headers.host}`), database.db).then(
      (response) => sendWebResponse(response, res),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = (apiKey: string) =>
    new Stripe(apiKey, {
      host: '127.0.0.1',
      port,
      protocol: 'http',
      httpClient: pathPrefixHttpClient('/billing-sandbox'),
      maxNetworkRetries: 0,
    });
  const key = await sandboxSecretKey(database.db);
  const stripe = client(key);
  return {
    database,
    port,
    key,
    stripe,
    client,
    clockedCustomer: (start, card) => clockedCustomer(stripe, start, card),
    subscribedCustomer: async (start, card, params) => {
      const { clock, customer } = await clockedCustomer(stripe, start, card);
      const created = await stripe.subscriptions.create({ customer: customer.id, ...params });
      return { clock, customer, created };
    },
    customerEvents: (customerId) => customerEvents(stripe, customerId),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    },
  };
}

/**
 * A test card attached to the customer and made the default its invoices are charged to
 * (`invoice_settings.default_payment_method`). 4242 4242 4242 4242 unless told.
 */
export async function attachCard(
  stripe: Stripe,
  customerId: string,
  number = '4242424242424242',
): Promise<Stripe.PaymentMethod> {
  const paymentMethod = await stripe.paymentMethods.create({
    type: 'card',
    card: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' },
  });
  await stripe.paymentMethods.attach(paymentMethod.id, { customer: customerId });
  await stripe.customers.update(customerId, {
    invoice_settings: { default_payment_method: paymentMethod.id },
  });
  return paymentMethod;
}

/** Stripe's test card that attaches to a customer and whose every charge is declined. */
export const FAILING_CARD = '4000000000000341';

/**
 * Makes the customer's card start failing, the way one does it on Stripe: 4000 0000 0000 0341
 * attached and made the default its invoices are charged to (a subscription's own
 * `default_payment_method`, if it has one, still comes first).
 */
export function switchToFailingCard(
  stripe: Stripe,
  customerId: string,
): Promise<Stripe.PaymentMethod> {
  return attachCard(stripe, customerId, FAILING_CARD);
}

/** A new customer whose invoices are charged to a test card (4242 4242 4242 4242 unless told). */
export async function customerWithCard(
  stripe: Stripe,
  params: Stripe.CustomerCreateParams = {},
  number?: string,
): Promise<Stripe.Customer> {
  const customer = await stripe.customers.create(params);
  await attachCard(stripe, customer.id, number);
  return customer;
}

/**
 * A product and a function that adds a tax-inclusive yen price to it, recurring every
 * `interval` (with a lookup key if given).
 */
export async function productWithPrices(stripe: Stripe, product: { id: string; name: string }) {
  await stripe.products.create(product);
  return (
    unit_amount: number,
    interval: Stripe.PriceCreateParams.Recurring.Interval,
    lookup_key?: string,
  ) =>
    stripe.prices.create({
      product: product.id,
      currency: 'jpy',
      unit_amount,
      recurring: { interval },
      ...(lookup_key === undefined ? {} : { lookup_key }),
      tax_behavior: 'inclusive',
    });
}

/** Stripe's answer to a declined test card, as the SDK raises it (StripeCardError, 402). */
export function expectCardDeclined(error: unknown): void {
  expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
  expect(error).toMatchObject({
    statusCode: 402,
    type: 'StripeCardError',
    code: 'card_declined',
    decline_code: 'generic_decline',
  });
}

async function clockedCustomer(
  stripe: Stripe,
  start: number,
  card: string | null = '4242424242424242',
) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
  const params = { email: `${clock.id}@example.jp`, test_clock: clock.id };
  const customer = card
    ? await customerWithCard(stripe, params, card)
    : await stripe.customers.create(params);
  return { clock, customer };
}

async function customerEvents(stripe: Stripe, customerId: string): Promise<Stripe.Event[]> {
  const all: Stripe.Event[] = [];
  for await (const event of stripe.events.list({ limit: 100 })) all.push(event);
  return all
    .filter((event) => (event.data.object as { customer?: unknown }).customer === customerId)
    .reverse();
}
