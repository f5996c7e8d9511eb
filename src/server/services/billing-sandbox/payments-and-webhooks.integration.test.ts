import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { customerWithCard, expectCardDeclined, useSandbox } from '@test-support/billing-sandbox';
import { WEBHOOK_RETRY_DELAYS, deliverPendingEvents, deliveriesOf } from './webhooks';

/** Payment methods with the test cards, and webhook delivery, driven by the official SDK. */

type Received = { body: string; signature: string };

describe('billing sandbox payment methods and webhooks', () => {
  const sandbox = useSandbox();
  let database: Database;
  let receiver: http.Server;
  let receiverUrl: string;
  let stripe: Stripe;
  let received: Received[] = [];
  /** Statuses the receiver answers with, in turn; 200 once they run out. */
  let answers: number[] = [];

  beforeAll(async () => {
    ({ database, stripe } = sandbox);
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(req.headers['stripe-signature']),
        });
        res.statusCode = answers.shift() ?? 200;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));
  beforeEach(() => {
    received = [];
    answers = [];
  });

  const card = (number: string, exp_year = new Date().getUTCFullYear() + 3) =>
    stripe.paymentMethods.create({
      type: 'card',
      card: { number, exp_month: 12, exp_year, cvc: '123' },
    });

  describe('payment methods', () => {
    it('makes a card payment method that keeps only brand, last4, expiry and fingerprint', async () => {
      const paymentMethod = await card('4242 4242 4242 4242');
      expect(paymentMethod).toMatchObject({
        object: 'payment_method',
        type: 'card',
        customer: null,
        card: { brand: 'visa', last4: '4242', exp_month: 12 },
      });
      expect(paymentMethod.card?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(JSON.stringify(paymentMethod)).not.toContain('4242424242424242');
      const again = await card('4242424242424242');
      expect(again.card?.fingerprint).toBe(paymentMethod.card?.fingerprint);
      expect(await stripe.paymentMethods.retrieve(paymentMethod.id)).toEqual(
        expect.objectContaining({ id: paymentMethod.id, card: paymentMethod.card }),
      );
    });

    it('refuses an invalid number and a past expiry with card errors', async () => {
      await expect(card('4242424242424241')).rejects.toMatchObject({
        type: 'StripeCardError',
        code: 'invalid_number',
        param: 'card[number]',
      });
      await expect(card('4242424242424242', 2020)).rejects.toMatchObject({
        type: 'StripeCardError',
        code: 'invalid_expiry_year',
      });
    });

    it('attaches, lists by customer, sets the default and declines 0002 at attach', async () => {
      const customer = await stripe.customers.create({ email: 'pm@example.jp' });
      const good = await card('4242424242424242');
      const attached = await stripe.paymentMethods.attach(good.id, { customer: customer.id });
      expect(attached.customer).toBe(customer.id);
      const failing = await card('4000000000000341');
      await stripe.paymentMethods.attach(failing.id, { customer: customer.id });

      const declined = await card('4000000000000002');
      const error = await stripe.paymentMethods
        .attach(declined.id, { customer: customer.id })
        .catch((caught: unknown) => caught);
      expectCardDeclined(error);

      const listed = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
      expect(listed.data.map((pm) => pm.id)).toEqual([failing.id, good.id]);
      const ofCustomer = await stripe.customers.listPaymentMethods(customer.id);
      expect(ofCustomer.data).toHaveLength(2);

      const updated = await stripe.customers.update(customer.id, {
        invoice_settings: { default_payment_method: good.id },
      });
      expect(updated.invoice_settings.default_payment_method).toBe(good.id);
      await expect(
        stripe.customers.update(customer.id, {
          invoice_settings: { default_payment_method: declined.id },
        }),
      ).rejects.toMatchObject({ param: 'invoice_settings[default_payment_method]' });

      await stripe.paymentMethods.detach(good.id);
      const after = await stripe.customers.retrieve(customer.id);
      expect((after as Stripe.Customer).invoice_settings.default_payment_method).toBeNull();
    });
  });

  describe('webhooks', () => {
    async function makeEvents() {
      const clock = await stripe.testHelpers.testClocks.create({
        frozen_time: Date.UTC(2027, 0, 10) / 1000,
      });
      const customer = await customerWithCard(stripe, { test_clock: clock.id });
      await stripe.products.create({ id: `prod_${clock.id}`, name: 'プラン' });
      const price = await stripe.prices.create({
        product: `prod_${clock.id}`,
        currency: 'jpy',
        unit_amount: 1100,
        recurring: { interval: 'month' },
      });
      return stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    }

    it('shows the secret on create only, lists and deletes endpoints', async () => {
      const endpoint = await stripe.webhookEndpoints.create({
        url: receiverUrl,
        enabled_events: ['invoice.paid'],
      });
      expect(endpoint).toMatchObject({ object: 'webhook_endpoint', status: 'enabled' });
      expect(endpoint.secret).toMatch(/^whsec_/);
      const retrieved = await stripe.webhookEndpoints.retrieve(endpoint.id);
      expect(retrieved.secret).toBeUndefined();
      const listed = await stripe.webhookEndpoints.list();
      expect(listed.data.map((item) => item.id)).toContain(endpoint.id);
      const deleted = await stripe.webhookEndpoints.del(endpoint.id);
      expect(deleted).toMatchObject({ id: endpoint.id, deleted: true });
      await expect(stripe.webhookEndpoints.retrieve(endpoint.id)).rejects.toMatchObject({
        code: 'resource_missing',
      });
    });

    it('delivers matching events once, signed so that the SDK verifies them', async () => {
      const endpoint = await stripe.webhookEndpoints.create({
        url: receiverUrl,
        enabled_events: ['customer.subscription.created', 'invoice.paid'],
      });
      const secret = endpoint.secret ?? '';
      const subscription = await makeEvents();
      const report = await deliverPendingEvents(database.db);
      expect(report).toEqual({ delivered: 2, retrying: 0, failed: 0 });
      const events = received.map((delivery) =>
        stripe.webhooks.constructEvent(delivery.body, delivery.signature, secret),
      );
      expect(events.map((event) => event.type)).toEqual([
        'customer.subscription.created',
        'invoice.paid',
      ]);
      expect((events[0]?.data.object as Stripe.Subscription).id).toBe(subscription.id);
      expect(events[0]?.pending_webhooks).toBe(1);
      const stored = await stripe.events.retrieve(events[0]?.id ?? '');
      expect(stored.pending_webhooks).toBe(0);

      // A tampered body is refused by the SDK.
      const first = received[0] as Received;
      const tampered = first.body.replace(subscription.id, 'sub_forged');
      expect(() => stripe.webhooks.constructEvent(tampered, first.signature, secret)).toThrow(
        Stripe.errors.StripeSignatureVerificationError,
      );
      // Nothing left to deliver.
      received = [];
      expect(await deliverPendingEvents(database.db)).toEqual({
        delivered: 0,
        retrying: 0,
        failed: 0,
      });
      expect(received).toHaveLength(0);
      await stripe.webhookEndpoints.del(endpoint.id);
    });

    it('retries after a 500 with backoff and then delivers', async () => {
      const endpoint = await stripe.webhookEndpoints.create({
        url: receiverUrl,
        enabled_events: ['customer.subscription.created'],
      });
      await makeEvents();
      answers = [500];
      const now = Math.floor(Date.now() / 1000);
      expect(await deliverPendingEvents(database.db, { now })).toEqual({
        delivered: 0,
        retrying: 1,
        failed: 0,
      });
      // Not due again before the first delay has passed.
      expect(await deliverPendingEvents(database.db, { now: now + 30 })).toMatchObject({
        retrying: 0,
        delivered: 0,
      });
      const retryAt = now + (WEBHOOK_RETRY_DELAYS[0] ?? 0);
      expect(await deliverPendingEvents(database.db, { now: retryAt })).toMatchObject({
        delivered: 1,
      });
      expect(received).toHaveLength(2);
      const event = JSON.parse((received[1] as Received).body) as Stripe.Event;
      expect(received[0]?.body).toBe(received[1]?.body);
      const deliveries = await deliveriesOf(database.db, event.id);
      expect(deliveries[0]).toMatchObject({
        status: 'delivered',
        attempt_count: 2,
        attempts: [
          { at: now, status: 500 },
          { at: retryAt, status: 200 },
        ],
      });
      // Signed at the retry's time.
      expect((received[1] as Received).signature).toMatch(new RegExp(`^t=${retryAt},v1=`));
      await stripe.webhookEndpoints.del(endpoint.id);
    });

    it('gives up after the last retry, also on network failures', async () => {
      const endpoint = await stripe.webhookEndpoints.create({
        url: 'http://127.0.0.1:9/unreachable',
        enabled_events: ['*'],
      });
      await makeEvents();
      let now = Math.floor(Date.now() / 1000);
      const first = await deliverPendingEvents(database.db, { now });
      expect(first.retrying).toBeGreaterThan(0);
      const count = first.retrying;
      for (const delay of WEBHOOK_RETRY_DELAYS) {
        now += delay;
        await deliverPendingEvents(database.db, { now });
      }
      expect(await deliverPendingEvents(database.db, { now: now + 10 ** 6 })).toEqual({
        delivered: 0,
        retrying: 0,
        failed: 0,
      });
      const events = await stripe.events.list({ limit: 1 });
      const deliveries = await deliveriesOf(database.db, events.data[0]?.id ?? '');
      expect(deliveries[0]).toMatchObject({
        status: 'failed',
        attempt_count: WEBHOOK_RETRY_DELAYS.length + 1,
      });
      expect(events.data[0]?.pending_webhooks).toBe(0);
      expect(count).toBeGreaterThan(1);
      await stripe.webhookEndpoints.del(endpoint.id);
    });
  });
});
