import type Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { auditEvents, mailOutbox, subscriptions } from '@/server/platform/db/schema';
import { useBillingSite } from '@test-support/billing-site';
import { checkoutOutcome, startCheckout } from './checkout';
import { billingSummaryFor } from './reader-billing';

/**
 * The success page reconciles the checkout itself (checkoutOutcome), through the official SDK
 * against the sandbox and the webhook's own code: the plan is applied without waiting for the
 * webhook, the webhook arriving afterwards (or before) changes nothing more, and another
 * reader's session id is refused without applying anything.
 */

describe('the success page applies a completed checkout at once', () => {
  const site = useBillingSite();
  let db: Db;
  let stripe: Stripe;
  beforeAll(() => ({ db, stripe } = site));

  const { deliver } = site;
  const newReader = () => site.newReader('success');

  /** Pays on the hosted checkout page (events NOT delivered); answers the session's id. */
  async function pay(url: string): Promise<string> {
    expect((await site.pay(url)).status).toBe(303);
    return url.split('/').at(-1)!;
  }

  /** What the reader's plan left behind: records, welcome mails, audit lines. */
  async function traces(reader: { id: string; email: string }) {
    const rows = await db.select().from(subscriptions).where(eq(subscriptions.userId, reader.id));
    const welcomes = await db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, reader.email), eq(mailOutbox.kind, 'billing-welcome')));
    const audits = await db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.target, reader.id), eq(auditEvents.action, 'billing.subscription')),
      );
    return {
      subscriptions: rows.map((row) => ({ id: row.id, status: row.status, plan: row.planName })),
      welcomes: welcomes.length,
      audits: audits.length,
    };
  }

  it('applies the plan without the webhook; the webhook afterwards changes nothing', async () => {
    const reader = await newReader();
    const started = await startCheckout(db, reader, 'monthly', null, '/posts/abc');
    expect(started.url).toContain('/billing-sandbox/checkout/');
    const sessionId = await pay(started.url);
    // Nothing delivered yet: no record.
    expect((await traces(reader)).subscriptions).toEqual([]);

    const outcome = await checkoutOutcome(db, reader.id, sessionId);
    expect(outcome).toMatchObject({ state: 'recorded', status: 'trialing' });
    expect((await billingSummaryFor(db, reader.id)).current).toMatchObject({
      planKey: 'monthly',
      status: 'trialing',
    });
    const applied = await traces(reader);
    expect(applied.subscriptions).toHaveLength(1);
    expect(applied.welcomes).toBe(1);
    expect(applied.audits).toBe(1);

    // Asked again (the poller), then every event delivered: nothing more.
    expect(await checkoutOutcome(db, reader.id, sessionId)).toMatchObject({ state: 'recorded' });
    await deliver();
    expect(await traces(reader)).toEqual(applied);
  });

  it('the webhook first, the page second: one record, one welcome', async () => {
    const reader = await newReader();
    const started = await startCheckout(db, reader, 'yearly', null);
    const sessionId = await pay(started.url);
    await deliver();
    const delivered = await traces(reader);
    expect(delivered.subscriptions).toHaveLength(1);
    expect(await checkoutOutcome(db, reader.id, sessionId)).toMatchObject({ state: 'recorded' });
    expect(await traces(reader)).toEqual(delivered);
  });

  it("another reader's session id is refused, and applies nothing", async () => {
    const owner = await newReader();
    const other = await newReader();
    const started = await startCheckout(db, owner, 'monthly', null);
    const sessionId = await pay(started.url);
    expect(await checkoutOutcome(db, other.id, sessionId)).toEqual({ state: 'not-found' });
    expect((await traces(owner)).subscriptions).toEqual([]);
    expect((await traces(other)).subscriptions).toEqual([]);
    // The owner, asking, gets it applied.
    expect(await checkoutOutcome(db, owner.id, sessionId)).toMatchObject({ state: 'recorded' });
    await deliver();
  });

  it('a checkout not yet paid stays pending, and is not applied', async () => {
    const reader = await newReader();
    const started = await startCheckout(db, reader, 'monthly', null);
    const sessionId = started.url.split('/').at(-1)!;
    expect(await checkoutOutcome(db, reader.id, sessionId)).toEqual({ state: 'pending' });
    expect((await traces(reader)).subscriptions).toEqual([]);
    await stripe.checkout.sessions.expire(sessionId);
  });
});
