import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '@/server/db/client';
import { auditEvents, mailOutbox, subscriptions, user } from '@/server/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { createProfiles } from '@/server/profiles/profiles';
import { syncCatalogue } from './catalogue';
import { checkoutOutcome, startCheckout } from './checkout';
import { billingProvider } from './provider';
import { billingSummaryFor } from './reader-billing';
import { handleBillingSandbox } from './sandbox/http';
import { deliverPendingEvents } from './sandbox/webhooks';
import { ensureSandboxWebhook } from './sandbox/setup';
import { handleBillingWebhook } from './webhook';

/**
 * The success page reconciles the checkout itself (checkoutOutcome), through the official SDK
 * against the sandbox and the webhook's own code: the plan is applied without waiting for the
 * webhook, the webhook arriving afterwards (or before) changes nothing more, and another
 * reader's session id is refused without applying anything.
 */

describe('the success page applies a completed checkout at once', () => {
  let database: Database;
  let db: Db;
  let stripe: Stripe;
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    ({ stripe } = await billingProvider(db));
    await syncCatalogue(db);
    await ensureSandboxWebhook(db);
  });
  afterAll(async () => {
    await database.close();
  });

  async function newReader() {
    const id = `success-${++counter}-${Date.now()}`;
    const email = `${id}@example.jp`;
    await db.insert(user).values({ id, name: `読者 ${counter}`, email });
    await createProfiles(db, { userId: id, email, displayName: `読者 ${counter}` });
    return { id, email, name: `読者 ${counter}` };
  }

  /** The hosted checkout page's form, posted as a browser posts it; events are NOT delivered. */
  async function pay(url: string): Promise<string> {
    const response = await handleBillingSandbox(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(url).origin,
        },
        body: new URLSearchParams({
          number: '4242424242424242',
          exp: '12/40',
          cvc: '123',
          name: 'TARO YAMADA',
        }),
      }),
      db,
    );
    expect(response.status).toBe(303);
    return url.split('/').at(-1)!;
  }

  const deliver = () =>
    deliverPendingEvents(db, {
      fetch: (input, init) => handleBillingWebhook(new Request(input, init), db),
    });

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
