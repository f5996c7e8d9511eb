import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import {
  auditEvents,
  billingNotifications,
  mailOutbox,
  subscriptions,
} from '@/server/platform/db/schema';
import { useBillingSite } from '@test-support/billing-site';
import { attachCard } from '@test-support/billing-sandbox';
import { CheckoutRefused, checkoutOutcome, startCheckout } from './checkout';
import { CHARGING_STATUSES, duplicateClaimKey, keepOnePlan } from './one-plan';
import { billingSummaryFor } from './reader-billing';
import { signatureHeader } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingWebhook } from './webhook';

// Paid from the first day (no free trial), so that a reversed plan has a payment to refund.
process.env.BILLING_TRIAL_DAYS = '0';

/**
 * One paid plan per reader (docs/decisions/021-one-plan-per-reader.md), through the official SDK
 * against the sandbox: a checkout refused up front, and a second plan that completes anyway
 * (two checkouts opened before either was paid, concurrent completions, events in any order,
 * at the same moment, on two instances) reversed at once, refunded, recorded and told, once.
 */

describe('one plan per reader', () => {
  const site = useBillingSite();
  const { plan, pay, deliver } = site;
  let db: Db;
  let stripe: Stripe;
  let secret: string;
  beforeAll(() => ({ db, stripe, secret } = site));
  const newReader = () => site.newCustomer('one-plan');

  /** An event signed as Stripe signs it, posted to one instance's webhook handler. */
  const post = (instance: Db, event: Stripe.Event) => {
    const body = JSON.stringify(event);
    return handleBillingWebhook(
      new Request('http://localhost:3000/api/webhooks/billing', {
        method: 'POST',
        body,
        headers: {
          'stripe-signature': signatureHeader(body, secret, Math.floor(Date.now() / 1000)),
        },
      }),
      instance,
    );
  };

  /** Posts an event until it is applied (a 409 says another delivery is applying it). */
  async function postUntilApplied(instance: Db, event: Stripe.Event) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const answer = await post(instance, event);
      if (answer.status === 200) return;
      expect(answer.status).toBe(409);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`event ${event.id} was never applied`);
  }

  async function eventsOf(customerId: string): Promise<Stripe.Event[]> {
    const events: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ limit: 100 })) {
      const object = event.data.object as { customer?: unknown };
      if (object.customer === customerId) events.push(event);
    }
    return events.reverse();
  }

  /** Two plans completed at the same moment for one reader, events not yet delivered. */
  async function twoConcurrentPlans() {
    const reader = await newReader();
    await attachCard(stripe, reader.customerId);
    const created = await Promise.all(
      (['monthly', 'yearly'] as const).map((key) =>
        stripe.subscriptions.create({
          customer: reader.customerId,
          items: [{ price: plan(key).priceId }],
        }),
      ),
    );
    const [kept, reversed] = byAge(created);
    return { reader, kept: kept!, reversed: reversed!, events: await eventsOf(reader.customerId) };
  }

  /** Oldest first, as keepOnePlan orders them: by `created`, then by id. */
  const byAge = (list: Stripe.Subscription[]) =>
    [...list].sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));

  const mailsTo = (to: string, kind: string) =>
    db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)));

  /** The end state every path must reach: one plan, the newer one reversed once. */
  async function expectOnePlan(
    reader: { id: string; email: string; customerId: string },
    kept: Stripe.Subscription,
    reversed: Stripe.Subscription,
  ) {
    const atProvider = await stripe.subscriptions.list({ customer: reader.customerId });
    const charging = atProvider.data.filter((s) => CHARGING_STATUSES.includes(s.status));
    expect(charging.map((s) => s.id)).toEqual([kept.id]);
    expect((await stripe.subscriptions.retrieve(reversed.id)).status).toBe('canceled');

    const [invoice] = (await stripe.invoices.list({ subscription: reversed.id })).data;
    const [payment] = (await stripe.invoicePayments.list({ invoice: invoice!.id })).data;
    const paymentIntent = payment!.payment.payment_intent as string;
    const refunds = await stripe.refunds.list({ payment_intent: paymentIntent });
    expect(refunds.data).toHaveLength(1);
    expect(refunds.data[0]).toMatchObject({
      object: 'refund',
      amount: invoice!.amount_paid,
      reason: 'duplicate',
      status: 'succeeded',
    });
    expect(invoice!.amount_paid).toBeGreaterThan(0);
    const [keptInvoice] = (await stripe.invoices.list({ subscription: kept.id })).data;
    const [keptPayment] = (await stripe.invoicePayments.list({ invoice: keptInvoice!.id })).data;
    const keptRefunds = await stripe.refunds.list({
      payment_intent: keptPayment!.payment.payment_intent as string,
    });
    expect(keptRefunds.data).toHaveLength(0);

    const rows = await db.select().from(subscriptions).where(eq(subscriptions.userId, reader.id));
    expect(rows.find((row) => row.id === kept.id)?.status).toBe('active');
    expect(rows.find((row) => row.id === reversed.id)?.status).toBe('canceled');
    const summary = await billingSummaryFor(db, reader.id);
    expect(summary.current?.subscriptionId).toBe(kept.id);

    const audits = await db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.target, reader.id),
          eq(auditEvents.action, 'billing.subscription.duplicate-reversed'),
        ),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]?.detail).toMatchObject({
      subscription: reversed.id,
      kept: kept.id,
      refunded: invoice!.amount_paid,
    });
    expect(await mailsTo(reader.email, 'billing-duplicate-reversed')).toHaveLength(1);
    // The reversed plan is neither welcomed nor receipted: its mail says it was refunded.
    expect(await mailsTo(reader.email, 'billing-welcome')).toHaveLength(1);
    expect(await mailsTo(reader.email, 'billing-receipt')).toHaveLength(1);
  }

  it('refuses a second checkout, even before the first one’s events have arrived', async () => {
    const reader = await newReader();
    const first = await startCheckout(db, reader, 'monthly', null);
    expect((await pay(first.url)).status).toBe(303);
    // No event delivered yet: the site's records know nothing, the provider does.
    const refused = await startCheckout(db, reader, 'yearly', null).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CheckoutRefused);
    expect(refused).toMatchObject({ reason: 'already-subscribed', status: 409 });
    expect((refused as Error).message).toContain('プランの管理');
    await deliver();
    await expect(startCheckout(db, reader, 'yearly', null)).rejects.toBeInstanceOf(CheckoutRefused);
  });

  it('reverses the second of two checkouts opened before either was paid', async () => {
    const reader = await newReader();
    const monthly = await startCheckout(db, reader, 'monthly', null);
    const yearly = await startCheckout(db, reader, 'yearly', null);
    expect((await pay(monthly.url)).status).toBe(303);
    expect((await pay(yearly.url)).status).toBe(303);
    await deliver();
    const sessionOf = (url: string) => url.split('/').at(-1)!;
    const [monthlySession, yearlySession] = await Promise.all(
      [monthly, yearly].map((started) => stripe.checkout.sessions.retrieve(sessionOf(started.url))),
    );
    const both = await Promise.all(
      [monthlySession, yearlySession].map((session) =>
        stripe.subscriptions.retrieve(session!.subscription as string),
      ),
    );
    // Paid within the same second (on the reader's test clock, at the same frozen time): the
    // tie is broken by id, the same way on every instance.
    const [kept, reversed] = byAge(both);
    await expectOnePlan(reader, kept!, reversed!);
    const sessionOfSubscription = (id: string) =>
      [monthly, yearly][both.findIndex((subscription) => subscription.id === id)]!.url;
    expect(
      await checkoutOutcome(db, reader.id, sessionOf(sessionOfSubscription(kept!.id))),
    ).toMatchObject({ state: 'recorded', status: 'active' });
    expect(
      await checkoutOutcome(db, reader.id, sessionOf(sessionOfSubscription(reversed!.id))),
    ).toEqual({ state: 'duplicate' });
  });

  it.each([
    ['in the order they happened', (events: Stripe.Event[]) => events],
    ['in the reverse order', (events: Stripe.Event[]) => [...events].reverse()],
  ])('keeps one of two concurrent completions, events delivered %s', async (_, order) => {
    const { reader, kept, reversed, events } = await twoConcurrentPlans();
    for (const event of order(events)) await postUntilApplied(db, event);
    await expectOnePlan(reader, kept, reversed);
  });

  it('keeps one of two concurrent completions, every event delivered at the same moment', async () => {
    const { reader, kept, reversed, events } = await twoConcurrentPlans();
    await Promise.all(events.map((event) => postUntilApplied(db, event)));
    await expectOnePlan(reader, kept, reversed);
  });

  it('leaves a reversal another process has under way, and takes over one it abandoned', async () => {
    const { reader, kept, reversed, events } = await twoConcurrentPlans();
    // Another instance claimed the reversal a moment ago and is still at it.
    const key = duplicateClaimKey(reversed.id);
    await db.insert(billingNotifications).values({ key });
    for (const event of events) await postUntilApplied(db, event);
    const charging = async () =>
      (await stripe.subscriptions.list({ customer: reader.customerId })).data.filter((s) =>
        CHARGING_STATUSES.includes(s.status),
      );
    expect(await charging()).toHaveLength(2);
    expect(await keepOnePlan(db, reader.id, reader.customerId)).toEqual([]);
    // It died midway: once its claim is old, the next event (or the provider's retry) finishes.
    await db
      .update(billingNotifications)
      .set({ sentAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(billingNotifications.key, key));
    const [reversal, ...more] = await keepOnePlan(db, reader.id, reader.customerId);
    expect(more).toHaveLength(0);
    expect(reversal).toMatchObject({ subscriptionId: reversed.id, keptSubscriptionId: kept.id });
    await expectOnePlan(reader, kept, reversed);
  });

  it('keeps one on two instances sharing the database, each delivery sent to both', async () => {
    // A second instance: its own Db handle (own provider client and caches) on the same data.
    const second = { ...db } as Db;
    Object.setPrototypeOf(second, Object.getPrototypeOf(db) as object);
    const { reader, kept, reversed, events } = await twoConcurrentPlans();
    await Promise.all(
      events.flatMap((event) => [postUntilApplied(db, event), postUntilApplied(second, event)]),
    );
    await expectOnePlan(reader, kept, reversed);
  });
});
