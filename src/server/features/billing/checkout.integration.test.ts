import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { useBillingSite } from '@test-support/billing-site';
import { CheckoutRefused, checkoutOutcome, startCheckout, trialDaysFor } from './checkout';
import { type CustomerOwner, customerIdOf, ensureCustomer } from './customers';
import { PortalForbidden, createPortalSession } from './portal';
import { billingSummaryFor, findReceipt, listReceipts } from './reader-billing';
import { type PlanKey } from '@/lib/billing/plans';

/**
 * A reader's way from the confirmation screen to a recorded plan, through the same SDK calls
 * as production and the sandbox's hosted checkout page, posted as a browser posts it.
 */

describe('checkout and the portal', () => {
  const site = useBillingSite();
  const { deliver } = site;
  let db: Db;
  let stripe: Stripe;
  beforeAll(() => ({ db, stripe } = site));
  const newReader = () => site.newReader('buyer');

  /** Pays on the hosted checkout page, then delivers the events. */
  async function pay(url: string, number: string): Promise<Response> {
    const response = await site.pay(url, number);
    await deliver();
    return response;
  }

  /** A plan bought through checkout with a 4242 card, then cancelled: the reader's plan ended. */
  async function endPlan(reader: CustomerOwner, plan: PlanKey) {
    const started = await startCheckout(db, reader, plan, null);
    await pay(started.url, '4242424242424242');
    const { current } = await billingSummaryFor(db, reader.id);
    await stripe.subscriptions.cancel(current!.subscriptionId);
    await deliver();
  }

  it('starts a checkout with a first-time trial, records the plan through the webhook, once', async () => {
    const reader = await newReader();
    expect(await trialDaysFor(db, reader.id)).toBe(14);
    const started = await startCheckout(db, reader, 'monthly', null);
    expect(started.url).toMatch(/^http:\/\/localhost:3000\/billing-sandbox\/checkout\/cs_test_/);
    expect(started.trialDays).toBe(14);
    const sessionId = started.url.split('/').at(-1)!;
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: reader.id,
      customer: await customerIdOf(db, reader.id),
      status: 'open',
    });
    expect(await checkoutOutcome(db, reader.id, sessionId)).toEqual({ state: 'pending' });

    const paid = await pay(started.url, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `http://localhost:3000/api/billing/checkout-return?session_id=${sessionId}`,
    );
    const outcome = await checkoutOutcome(db, reader.id, sessionId);
    expect(outcome).toMatchObject({ state: 'recorded', status: 'trialing' });

    // Someone else learns nothing about it; a made-up id neither.
    const other = await newReader();
    expect(await checkoutOutcome(db, other.id, sessionId)).toEqual({ state: 'not-found' });
    expect(await checkoutOutcome(db, reader.id, 'cs_test_nope')).toEqual({ state: 'not-found' });
    expect(await checkoutOutcome(db, reader.id, '../v1/customers')).toEqual({
      state: 'not-found',
    });

    const summary = await billingSummaryFor(db, reader.id);
    expect(summary.current).toMatchObject({ planKey: 'monthly', status: 'trialing' });
    expect(summary.trialDays).toBe(0);
    await expect(startCheckout(db, reader, 'yearly', null)).rejects.toBeInstanceOf(CheckoutRefused);
    // One customer per reader, also when two first checkouts race.
    const racer = await newReader();
    const ids = await Promise.all([
      ensureCustomer(db, racer),
      ensureCustomer(db, racer),
      ensureCustomer(db, racer),
    ]);
    expect(new Set(ids).size).toBe(1);
    expect(await customerIdOf(db, racer.id)).toBe(ids[0]);
  });

  it('a declined card leaves no plan, and the trial stays on offer', async () => {
    const reader = await newReader();
    const started = await startCheckout(db, reader, 'yearly', null);
    const declined = await pay(started.url, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('カードが拒否されました');
    const summary = await billingSummaryFor(db, reader.id);
    expect(summary.current).toBeNull();
    expect(summary.trialDays).toBe(14);
  });

  it('no second trial for a reader whose plan ended', async () => {
    const reader = await newReader();
    await endPlan(reader, 'monthly');
    expect((await billingSummaryFor(db, reader.id)).current).toBeNull();
    expect(await trialDaysFor(db, reader.id)).toBe(0);
    const again = await startCheckout(db, reader, 'monthly', null);
    expect(again.trialDays).toBe(0);
  });

  it('opens the portal only for the owner of the customer', async () => {
    const owner = await newReader();
    const started = await startCheckout(db, owner, 'monthly', null);
    await pay(started.url, '4242424242424242');
    const customerId = (await customerIdOf(db, owner.id))!;
    const url = await createPortalSession(db, owner.id, customerId, null);
    expect(url).toMatch(/^http:\/\/localhost:3000\/billing-sandbox\/portal\/bps_/);

    const stranger = await newReader();
    await expect(createPortalSession(db, stranger.id, customerId, null)).rejects.toBeInstanceOf(
      PortalForbidden,
    );
  });

  it('lists a paid invoice as a receipt for its owner only', async () => {
    const reader = await newReader();
    const stranger = await newReader();
    // A reader whose plan ended earlier has no trial: the first charge is a receipt.
    await endPlan(reader, 'yearly');
    const second = await startCheckout(db, reader, 'yearly', null);
    await pay(second.url, '4242424242424242');
    const receipts = await listReceipts(db, reader.id);
    expect(receipts.map((r) => [r.total, r.tax])).toEqual([[11000, 1000]]);
    expect(await findReceipt(db, reader.id, receipts[0]!.id)).not.toBeNull();
    expect(await findReceipt(db, stranger.id, receipts[0]!.id)).toBeNull();
  });
});
