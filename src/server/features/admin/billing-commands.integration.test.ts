import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { user } from '@/server/platform/db/schema';
import { createProfiles } from '@/server/features/profiles/profiles';
import { ensureCustomer } from '@/server/features/billing/customers';
import { billingProvider } from '@/server/features/billing/provider';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { isSandboxAuthorization } from '@/server/services/billing-sandbox/secret-key';
import { UsageError } from './command';
import { runAdminCommand } from './commands';

describe('billing admin commands (sandbox)', () => {
  const database = testDatabase({ global: false });
  const ctx = () => ({ database, actor: 'cli:test' });

  it('prints the sandbox key alone on the last line, the same each time', async () => {
    const first = (await runAdminCommand(ctx(), 'billing-sandbox-key', {})).at(-1)!;
    expect(first).toMatch(/^sk_test_[0-9a-f]{48}$/);
    expect((await runAdminCommand(ctx(), 'billing-sandbox-key', {})).at(-1)).toBe(first);
    expect(await isSandboxAuthorization(database.db, `Bearer ${first}`)).toBe(true);
  });

  it('syncs the plans, and refuses a reader who is not there', async () => {
    const plans = await runAdminCommand(ctx(), 'billing-sync-plans', {});
    expect(plans).toHaveLength(2);
    expect(plans[0]).toMatch(/^monthly: .+ ¥1,100\/month\s+price_/);
    expect(plans[1]).toMatch(/^yearly: .+ ¥11,000\/year\s+price_/);
    await expect(
      runAdminCommand(ctx(), 'billing-advance', { email: 'nobody@example.jp', days: '3' }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      runAdminCommand(ctx(), 'billing-advance', { email: 'nobody@example.jp', days: '-1' }),
    ).rejects.toThrow(/--days/);
    await expect(
      runAdminCommand(ctx(), 'billing-card-fails', { email: 'nobody@example.jp' }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it("swaps a reader's card for 0341: the next charge is declined", async () => {
    const owner = { id: 'card-fails', email: 'card-fails@example.jp', name: '読者' };
    await database.db.insert(user).values(owner);
    await createProfiles(database.db, {
      userId: owner.id,
      email: owner.email,
      displayName: owner.name,
    });
    const customerId = await ensureCustomer(database.db, owner);
    const lines = await runAdminCommand(ctx(), 'billing-card-fails', { email: owner.email });
    expect(lines.at(-1)).toContain('0341');
    const { stripe } = await billingProvider(database.db);
    const customer = (await stripe.customers.retrieve(customerId)) as Stripe.Customer;
    const card = await stripe.paymentMethods.retrieve(
      customer.invoice_settings.default_payment_method as string,
    );
    expect(card.card?.last4).toBe('0341');
  });

  it('pays the oldest open konbini payment of an e-mail, and says when there is none', async () => {
    const { stripe } = await billingProvider(database.db);
    const email = 'konbini-admin@example.jp';
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'jpy', unit_amount: 500, product_data: { name: 'チップ' } },
          quantity: 1,
        },
      ],
      allowed_payment_method_types: ['konbini'],
      customer_email: email,
      success_url: 'https://axis.example.jp/thanks',
    });
    // The reader issues the payment numbers on the checkout page.
    const page = new URL(session.url ?? '');
    const confirmed = await handleBillingSandbox(
      new Request(page, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: page.origin },
        body: 'method=konbini',
      }),
      database.db,
    );
    expect(confirmed.status).toBe(303);
    const lines = await runAdminCommand(ctx(), 'billing-konbini-pay', { email });
    expect(lines.join('\n')).toMatch(/pi_\w+.*¥500/);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      payment_status: 'paid',
    });
    await expect(runAdminCommand(ctx(), 'billing-konbini-pay', { email })).rejects.toThrow(
      /未払いのコンビニ払いはありません/,
    );
  });
});
