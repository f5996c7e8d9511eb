import type Stripe from 'stripe';
import { afterAll, beforeAll } from 'vitest';
import type { Database, Db } from '@/server/platform/db/client';
import { user } from '@/server/platform/db/schema';
import { type Plan, syncCatalogue } from '@/server/features/billing/catalogue';
import { ensureCustomer } from '@/server/features/billing/customers';
import { billingProvider } from '@/server/features/billing/provider';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { ensureSandboxWebhook, webhookSecret } from '@/server/features/billing/sandbox-setup';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingWebhook } from '@/server/features/billing/webhook';
import { createProfiles } from '@/server/features/profiles/profiles';
import { createTestDatabase } from './db/test-database';

/**
 * The site's billing as production wires it, against the sandbox through the official SDK: one
 * fresh database per test file with the plan catalogue and the sandbox's webhook endpoint, and
 * what a test does with it. The fields are set once the file's beforeAll has run.
 */
export type BillingSite = {
  database: Database;
  db: Db;
  stripe: Stripe;
  plans: Plan[];
  /** The webhook endpoint's signing secret. */
  secret: string;
  plan: (key: 'monthly' | 'yearly') => Plan;
  /** A signed-up reader with a profile (no plan, no provider customer yet). */
  newReader: (prefix: string) => Promise<{ id: string; email: string; name: string }>;
  /** The same, with the reader's customer at the provider. */
  newCustomer: (
    prefix: string,
  ) => Promise<{ id: string; email: string; name: string; customerId: string }>;
  /** The hosted checkout page's form, posted as a browser posts it; events are not delivered. */
  pay: (url: string, number?: string) => Promise<Response>;
  /** Delivers the sandbox's pending events to the site's webhook endpoint. */
  deliver: () => ReturnType<typeof deliverPendingEvents>;
};

let readers = 0;

/** Registers the file's beforeAll/afterAll. */
export function useBillingSite(): BillingSite {
  const site: BillingSite = {
    plan: (key) => site.plans.find((plan) => plan.key === key)!,
    async newReader(prefix) {
      const n = ++readers;
      const id = `${prefix}-${n}-${Date.now()}`;
      const email = `${id}@example.jp`;
      const name = `読者 ${n}`;
      await site.db.insert(user).values({ id, name, email });
      await createProfiles(site.db, { userId: id, email, displayName: name });
      return { id, email, name };
    },
    async newCustomer(prefix) {
      const reader = await site.newReader(prefix);
      return { ...reader, customerId: await ensureCustomer(site.db, reader) };
    },
    pay: (url, number = '4242424242424242') =>
      handleBillingSandbox(
        new Request(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: new URL(url).origin,
          },
          body: new URLSearchParams({ number, exp: '12/40', cvc: '123', name: 'TARO YAMADA' }),
        }),
        site.db,
      ),
    deliver: () =>
      deliverPendingEvents(site.db, {
        fetch: (input, init) => handleBillingWebhook(new Request(input, init), site.db),
      }),
  } as BillingSite;
  beforeAll(async () => {
    site.database = await createTestDatabase();
    site.db = site.database.db;
    ({ stripe: site.stripe } = await billingProvider(site.db));
    site.plans = await syncCatalogue(site.db);
    await ensureSandboxWebhook(site.db);
    site.secret = (await webhookSecret(site.db))!;
  });
  afterAll(async () => {
    await site.database?.close();
  });
  return site;
}
