import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '@/server/platform/db/client';
import { billingSandboxSettings, user } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { sendWebResponse, toWebRequest } from '@/server/features/front/node-bridge';
import { createProfiles } from '@/server/features/profiles/profiles';
import { listSubscriptions } from '@/server/features/profiles/subscriptions';
import { syncCatalogue } from './catalogue';
import { checkoutOutcome, startCheckout } from './checkout';
import { createPortalSession } from './portal';
import { billingProvider } from './provider';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { pathPrefixHttpClient } from '@/server/services/billing-sandbox/path-prefix-http-client';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingWebhook } from './webhook';

/**
 * The production path: STRIPE_SECRET_KEY set, so the app builds `new Stripe(key)` with the
 * SDK's own Node HTTP client, pointed (STRIPE_API_URL) at a sandbox served over HTTP as a
 * stand-in for api.stripe.com, and verifies webhooks with STRIPE_WEBHOOK_SECRET. The same
 * code as with Stripe, end to end: catalogue, checkout, the hosted page, the webhook, portal.
 */

const KEY = `sk_test_${'5a'.repeat(24)}`;

describe('the Stripe path over HTTP', () => {
  let database: Database;
  let db: Db;
  let server: http.Server;
  let apiOrigin: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    // The sandbox's key is the operator's STRIPE_SECRET_KEY here.
    await db.insert(billingSandboxSettings).values({ name: 'secret_key', value: KEY });
    server = http.createServer((req, res) => {
      void handleBillingSandbox(toWebRequest(req, `http://${req.headers.host}`), db).then(
        (response) => sendWebResponse(response, res),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    apiOrigin = `http://127.0.0.1:${port}`;

    // What the operator sets up in Stripe's dashboard: the prices and the webhook endpoint.
    const operator = new Stripe(KEY, {
      host: '127.0.0.1',
      port,
      protocol: 'http',
      httpClient: pathPrefixHttpClient('/billing-sandbox'),
    });
    for (const [key, amount, interval] of [
      ['membership_monthly', 980, 'month'],
      ['membership_yearly', 9800, 'year'],
    ] as const) {
      const product = await operator.products.create({ name: `メンバーシップ ${key}` });
      await operator.prices.create({
        product: product.id,
        currency: 'jpy',
        unit_amount: amount,
        recurring: { interval },
        lookup_key: key,
      });
    }
    const endpoint = await operator.webhookEndpoints.create({
      url: 'http://localhost:3000/api/webhooks/billing',
      enabled_events: ['*'],
    });
    // Read by env() on its first use, which comes after this point in this file's module graph.
    process.env.STRIPE_SECRET_KEY = KEY;
    process.env.STRIPE_API_URL = `${apiOrigin}/billing-sandbox`;
    process.env.STRIPE_WEBHOOK_SECRET = endpoint.secret;
  });
  afterAll(async () => {
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_API_URL;
    delete process.env.STRIPE_WEBHOOK_SECRET;
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  it('subscribes a reader through checkout: the success page records the plan, the signed webhook adds nothing', async () => {
    expect((await billingProvider(db)).kind).toBe('stripe');
    const plans = await syncCatalogue(db);
    expect(plans.map((plan) => [plan.key, plan.amount, plan.interval])).toEqual([
      ['monthly', 980, 'month'],
      ['yearly', 9800, 'year'],
    ]);

    const id = `stripe-path-${Date.now()}`;
    await db.insert(user).values({ id, name: '読者', email: `${id}@example.jp` });
    await createProfiles(db, { userId: id, email: `${id}@example.jp`, displayName: '読者' });
    const started = await startCheckout(
      db,
      { id, email: `${id}@example.jp`, name: '読者' },
      'yearly',
      null,
    );
    expect(started.url.startsWith(`${apiOrigin}/billing-sandbox/checkout/cs_test_`)).toBe(true);

    // The reader's browser on the hosted page, over HTTP.
    const answer = await fetch(started.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: apiOrigin },
      body: new URLSearchParams({
        number: '4242424242424242',
        exp: '12/40',
        cvc: '123',
        name: 'A',
      }),
    });
    expect(answer.status).toBe(303);
    const sessionId = new URL(answer.headers.get('location')!).searchParams.get('session_id')!;
    // The success page reads the session over the SDK and records the plan without the webhook.
    expect(await checkoutOutcome(db, id, sessionId)).toMatchObject({
      state: 'recorded',
      status: 'trialing',
    });

    const report = await deliverPendingEvents(db, {
      fetch: (input, init) => handleBillingWebhook(new Request(input, init), db),
    });
    expect(report.failed).toBe(0);
    expect(await checkoutOutcome(db, id, sessionId)).toMatchObject({
      state: 'recorded',
      status: 'trialing',
    });
    const records = await listSubscriptions(db, id);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record?.items[0]?.price.id).toBe(plans[1]!.priceId);

    const customer = (await startCheckout(db, { id, email: '', name: '' }, 'monthly', null).catch(
      (error: Error) => error.message,
    )) as string;
    expect(customer).toContain('すでに有料プランをご利用中です');
    const portal = await createPortalSession(
      db,
      id,
      (await (await billingProvider(db)).stripe.subscriptions.retrieve(record!.id))
        .customer as string,
      null,
    );
    expect(portal.startsWith(`${apiOrigin}/billing-sandbox/portal/bps_`)).toBe(true);
  });
});
