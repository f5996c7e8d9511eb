import { and, eq } from 'drizzle-orm';
import { env } from '@/env';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import {
  billingInvoices,
  billingWebhookEvents,
  mailOutbox,
  subscriptions,
} from '@/server/platform/db/schema';
import { useBillingSite } from '@test-support/billing-site';
import { listSubscriptions } from '@/server/features/profiles/subscriptions';
import { cancelProviderSubscriptions } from './account-closure';
import { signatureHeader } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { providerInvoice } from './reader-notices';
import { billingNoticeText } from '@/lib/billing-notice';
import { handleBillingWebhook } from './webhook';
import { attachCard, switchToFailingCard } from '@test-support/billing-sandbox';

/**
 * The webhook endpoint against the sandbox, through the same SDK calls as production: events
 * signed as Stripe signs them, forged, stale, duplicated and reordered.
 */

describe('billing webhooks', () => {
  const site = useBillingSite();
  const { plan } = site;
  let db: Db;
  let stripe: Stripe;
  let secret: string;
  beforeAll(() => ({ db, stripe, secret } = site));
  const newReader = () => site.newCustomer('reader');

  async function subscribe(
    customerId: string,
    key: 'monthly' | 'yearly',
    trialDays?: number,
    number = '4242424242424242',
  ) {
    await attachCard(stripe, customerId, number);
    return stripe.subscriptions.create({
      customer: customerId,
      items: [{ price: plan(key).priceId }],
      ...(trialDays ? { trial_period_days: trialDays } : {}),
    });
  }

  /** A new reader subscribed monthly, and the customer.subscription.created event of it. */
  async function subscribedReader() {
    const reader = await newReader();
    const subscription = await subscribe(reader.customerId, 'monthly');
    const created = (await eventsOf(reader.customerId)).find(
      (event) => event.type === 'customer.subscription.created',
    )!;
    return { reader, subscription, created };
  }

  const post = (body: string, signature: string | null) =>
    handleBillingWebhook(
      new Request('http://localhost:3000/api/webhooks/billing', {
        method: 'POST',
        body,
        headers: signature ? { 'stripe-signature': signature } : {},
      }),
      db,
    );

  const now = () => Math.floor(Date.now() / 1000);
  const signed = (event: Stripe.Event) => {
    const body = JSON.stringify(event);
    return post(body, signatureHeader(body, secret, now()));
  };

  /** What the sandbox would send, handed to the site's handler in process. */
  const { deliver } = site;

  /** When the subscription's first period ends: its renewal (or first charge after a trial). */
  const renewalOf = (subscription: Stripe.Subscription) =>
    subscription.items.data[0]!.current_period_end;

  /** Moves the reader's test clock to `time` (Unix seconds) and delivers what it sent. */
  async function advanceTo(clock: string, time: number) {
    await stripe.testHelpers.testClocks.advance(clock, { frozen_time: time });
    await deliver();
  }

  async function eventsOf(customerId: string): Promise<Stripe.Event[]> {
    const events: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ limit: 100 })) {
      const object = event.data.object as { customer?: unknown; id?: string };
      if (object.customer === customerId || object.id === customerId) events.push(event);
    }
    return events.reverse(); // oldest first
  }

  const rowOf = async (subscriptionId: string) =>
    (await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0];

  const mailsTo = async (to: string, kind: string) =>
    db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)));

  it('records a new plan from its events, with its receipt, and mails the reader once each', async () => {
    const reader = await newReader();
    const subscription = await subscribe(reader.customerId, 'monthly');
    await deliver();
    await deliver(); // nothing left to send: no second mail either

    const records = await listSubscriptions(db, reader.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      id: subscription.id,
      status: 'active',
      cancel_at_period_end: false,
      items: [{ price: { id: plan('monthly').priceId, product: { name: plan('monthly').name } } }],
    });
    const invoices = await db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.userId, reader.id));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', total: 1100, tax: 100 });
    expect(await mailsTo(reader.email, 'billing-welcome')).toHaveLength(1);
    expect(await mailsTo(reader.email, 'billing-receipt')).toHaveLength(1);
  });

  it('refuses a missing, forged or stale signature and changes nothing', async () => {
    const { subscription, created } = await subscribedReader();
    const body = JSON.stringify(created);
    const answers = [
      await post(body, null),
      await post(body, signatureHeader(body, 'whsec_wrong', now())),
      await post(body, signatureHeader(body, secret, now() - 301)),
      await post(body.replace('"active"', '"trialing"'), signatureHeader(body, secret, now())),
      await post(body, `t=${now()},v1=${'0'.repeat(64)}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400]);
    expect(await rowOf(subscription.id)).toBeUndefined();
    expect(
      await db.select().from(billingWebhookEvents).where(eq(billingWebhookEvents.id, created.id)),
    ).toHaveLength(0);

    // Within the tolerance it is taken.
    const fresh = await post(body, signatureHeader(body, secret, now() - 200));
    expect(fresh.status).toBe(200);
    expect((await rowOf(subscription.id))?.status).toBe('active');
  });

  it('applies an event once and answers a redelivery at once', async () => {
    const { reader, created } = await subscribedReader();
    const first = await signed(created);
    const second = await signed(created);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(await mailsTo(reader.email, 'billing-welcome')).toHaveLength(1);
  });

  it('applies an event once when its deliveries arrive at the same moment (several instances)', async () => {
    const { reader, created } = await subscribedReader();
    const answers = await Promise.all(Array.from({ length: 6 }, () => signed(created)));
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    const applied = bodies.filter((body) => JSON.stringify(body) === '{"received":true}');
    expect(applied).toHaveLength(1);
    // The others: a duplicate if the first had finished, or "being applied" (the provider retries).
    for (const [i, answer] of answers.entries()) {
      if (bodies[i] === applied[0]) continue;
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 200) expect(bodies[i]).toEqual({ received: true, duplicate: true });
    }
    expect(await mailsTo(reader.email, 'billing-welcome')).toHaveLength(1);
    const [row] = await db
      .select()
      .from(billingWebhookEvents)
      .where(eq(billingWebhookEvents.id, created.id));
    expect(row?.state).toBe('applied');
  });

  it('waits for a delivery being applied, and takes over a claim its process left behind', async () => {
    const { subscription, created } = await subscribedReader();
    // Another instance has just claimed it and is applying it.
    await db.insert(billingWebhookEvents).values({
      id: created.id,
      type: created.type,
      state: 'applying',
    });
    const busy = await signed(created);
    expect(busy.status).toBe(409);
    expect(await rowOf(subscription.id)).toBeUndefined();

    // That instance died mid-way: ten minutes on, the next delivery applies it.
    await db
      .update(billingWebhookEvents)
      .set({ receivedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(billingWebhookEvents.id, created.id));
    const retried = await signed(created);
    expect(await retried.json()).toEqual({ received: true });
    expect((await rowOf(subscription.id))?.status).toBe('active');
    expect((await signed(created)).status).toBe(200);
  });

  it('answers 2xx to event types the site does not use', async () => {
    const reader = await newReader();
    const event = (await eventsOf(reader.customerId)).at(0);
    const unknown = { ...(event ?? {}), id: `evt_unknown_${reader.id}`, type: 'customer.created' };
    const answer = await signed(unknown as Stripe.Event);
    expect(answer.status).toBe(200);
  });

  it('ends in the provider state whatever the order of the same events', async () => {
    const reader = await newReader();
    const subscription = await subscribe(reader.customerId, 'monthly', 14);
    const item = subscription.items.data[0]!;
    await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: plan('yearly').priceId }],
      proration_behavior: 'none',
    });
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const events = await eventsOf(reader.customerId);
    expect(events.length).toBeGreaterThan(5);

    const provider = await stripe.subscriptions.retrieve(subscription.id);
    const expected = {
      status: provider.status,
      cancelAtPeriodEnd: true,
      priceId: plan('yearly').priceId,
      planName: plan('yearly').name,
      currentPeriodEnd: new Date(provider.items.data[0]!.current_period_end * 1000),
    };
    // A seeded shuffle: the same orders on every run, each different from the last.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 6; round++) {
      await db.delete(subscriptions).where(eq(subscriptions.userId, reader.id));
      for (const event of events) {
        await db.delete(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id));
      }
      const order = round === 0 ? [...events].reverse() : [...events];
      for (let i = order.length - 1; round > 0 && i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      for (const event of order) expect((await signed(event)).status).toBe(200);
      expect(await rowOf(subscription.id)).toMatchObject(expected);
    }
    // However often the events came, one welcome and one cancellation mail.
    expect(await mailsTo(reader.email, 'billing-welcome')).toHaveLength(1);
    expect(await mailsTo(reader.email, 'billing-cancellation')).toHaveLength(1);
  });

  it('follows a failed renewal: past_due with a mail per attempt, then cancelled', async () => {
    const reader = await newReader();
    const subscription = await subscribe(reader.customerId, 'monthly');
    // The card then starts failing (4000 0000 0000 0341, whose every charge is declined).
    await switchToFailingCard(stripe, reader.customerId);
    const customer = await stripe.customers.retrieve(reader.customerId);
    const clock = (customer as Stripe.Customer).test_clock as string;
    const advance = async (days: number) => {
      const { frozen_time } = await stripe.testHelpers.testClocks.retrieve(clock);
      await stripe.testHelpers.testClocks.advance(clock, {
        frozen_time: frozen_time + days * 86_400,
      });
      await deliver();
    };
    await deliver();
    expect((await rowOf(subscription.id))?.status).toBe('active');

    // A day past the renewal (a month is 28 to 31 days, so counted from the period's end, not
    // from today): the charge fails, and the first retry (3 days on) has not come yet.
    await advanceTo(clock, renewalOf(subscription) + 86_400);
    const pastDue = await rowOf(subscription.id);
    expect(pastDue?.status).toBe('past_due');
    expect(await mailsTo(reader.email, 'billing-payment-failed')).toHaveLength(1);
    const [unpaid] = await db
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.userId, reader.id), eq(billingInvoices.status, 'open')));
    expect(unpaid?.id).toBe(pastDue?.latestInvoiceId);

    await advance(8); // the retries at 3, 5 and 7 days fail too: the plan ends
    expect((await rowOf(subscription.id))?.status).toBe('canceled');
    expect(await mailsTo(reader.email, 'billing-payment-failed')).toHaveLength(4);
    expect(await mailsTo(reader.email, 'billing-receipt')).toHaveLength(1);
  });

  it('a renewal waiting for 3-D Secure: past_due, the notice links the challenge, then active', async () => {
    const reader = await newReader();
    const subscription = await subscribe(reader.customerId, 'monthly');
    // The card becomes one that asks for authentication on every charge (3184).
    await attachCard(stripe, reader.customerId, '4000002760003184');
    const clock = ((await stripe.customers.retrieve(reader.customerId)) as Stripe.Customer)
      .test_clock as string;
    await advanceTo(clock, renewalOf(subscription) + 86_400);
    const pastDue = await rowOf(subscription.id);
    expect(pastDue?.status).toBe('past_due');

    // The reader is mailed, in Japanese, with the way to the authentication (the account page,
    // whose notice links the challenge), from the site as every mail is.
    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.to, reader.email),
          eq(mailOutbox.kind, 'billing-authentication-required'),
        ),
      );
    expect(mail?.subject).toContain('本人認証');
    expect(mail?.textBody).toContain('¥1,100');
    expect(mail?.textBody).toContain('本人認証（3Dセキュア）');
    expect(mail?.textBody).toContain(`${env().SITE_URL}/account`);
    expect(mail?.textBody).toContain(env().SITE_NAME);
    expect(mail?.htmlBody).toContain(`href="${env().SITE_URL}/account"`);

    // Once per invoice: not again for a redelivered event, nor when the retry asks again.
    const asked = (await eventsOf(reader.customerId)).filter(
      (event) => event.type === 'invoice.payment_action_required',
    );
    expect(asked).toHaveLength(1);
    expect(await (await signed(asked[0]!)).json()).toEqual({ received: true, duplicate: true });
    await db.delete(billingWebhookEvents).where(eq(billingWebhookEvents.id, asked[0]!.id));
    expect((await signed(asked[0]!)).status).toBe(200);
    await advanceTo(clock, renewalOf(subscription) + 4 * 86_400); // the day-3 retry asks again
    expect(
      (await eventsOf(reader.customerId)).filter(
        (event) => event.type === 'invoice.payment_action_required',
      ),
    ).toHaveLength(2);
    expect(await mailsTo(reader.email, 'billing-authentication-required')).toHaveLength(1);

    const live = await providerInvoice(db, pastDue?.latestInvoiceId ?? '');
    const url = new URL(live?.authenticationUrl ?? '');
    expect(url.pathname).toMatch(/^\/billing-sandbox\/authenticate\/pi_/);
    const notice = { kind: 'past_due' as const, amount: 1100, nextAttempt: null };
    expect(billingNoticeText({ ...notice, authenticationUrl: url.href })).toContain(
      '本人認証（3Dセキュア）',
    );

    // The reader passes the challenge on the sandbox's page: paid, and active again.
    const passed = await handleBillingSandbox(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: url.origin,
        },
        body: 'result=succeeded',
      }),
      db,
    );
    expect(passed.status).toBe(200);
    await deliver();
    expect((await rowOf(subscription.id))?.status).toBe('active');
    expect((await providerInvoice(db, pastDue?.latestInvoiceId ?? ''))?.authenticationUrl).toBe(
      null,
    );
  });

  it('sends no 3-D Secure mail for a first payment: the reader is authenticating it right then', async () => {
    const reader = await newReader();
    const subscription = await subscribe(
      reader.customerId,
      'monthly',
      undefined,
      '4000002760003184',
    );
    expect(subscription.status).toBe('incomplete');
    await deliver();
    const types = (await eventsOf(reader.customerId)).map((event) => event.type);
    expect(types).toContain('invoice.payment_action_required');
    expect(await mailsTo(reader.email, 'billing-authentication-required')).toHaveLength(0);
  });

  it('tells a reader three days before the trial ends, once', async () => {
    const reader = await newReader();
    await subscribe(reader.customerId, 'yearly', 14);
    const customer = (await stripe.customers.retrieve(reader.customerId)) as Stripe.Customer;
    const clock = customer.test_clock as string;
    const { frozen_time } = await stripe.testHelpers.testClocks.retrieve(clock);
    await stripe.testHelpers.testClocks.advance(clock, { frozen_time: frozen_time + 12 * 86_400 });
    await deliver();
    expect(await mailsTo(reader.email, 'billing-trial-ending')).toHaveLength(1);
    expect(await mailsTo(reader.email, 'billing-receipt')).toHaveLength(0); // ¥0 so far
    await stripe.testHelpers.testClocks.advance(clock, { frozen_time: frozen_time + 15 * 86_400 });
    await deliver();
    expect(await mailsTo(reader.email, 'billing-trial-ending')).toHaveLength(1);
    expect(await mailsTo(reader.email, 'billing-receipt')).toHaveLength(1); // the first charge
  });

  it('cancels the provider plan of a reader who deletes the account', async () => {
    const reader = await newReader();
    const subscription = await subscribe(reader.customerId, 'yearly');
    expect(await cancelProviderSubscriptions(db, reader.id)).toBe(1);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    expect(await cancelProviderSubscriptions(db, reader.id)).toBe(0);
  });
});
