import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { billingProvider } from '@/server/features/billing';
import { listAudit } from '@/server/platform/audit/audit-log';
import { runAdminCommand } from '@/server/features/admin/commands';
import { UsageError } from '@/server/features/admin/command';
import {
  changeSeats,
  fundBankTransfer,
  invoiceDocument,
  invoiceStanding,
  quoteDocument,
  standingOf,
  startInvoiceSubscription,
  usableSeats,
} from '.';

/** 請求書払い through the billing sandbox, as the organisation code will call it. */

const DAY = 86_400;
const ADMIN = { userId: 'org-admin-1', ip: '192.0.2.1' };

describe('invoice billing (sandbox)', () => {
  const database = testDatabase({ global: false });
  let stripe: Stripe;
  let seatPrice: Stripe.Price;

  beforeAll(async () => {
    ({ stripe } = await billingProvider(database.db));
    await stripe.products.create({ id: 'prod_org_plan', name: '法人プラン' });
    seatPrice = await stripe.prices.create({
      product: 'prod_org_plan',
      currency: 'jpy',
      unit_amount: 11000,
      recurring: { interval: 'month' },
      tax_behavior: 'inclusive',
    });
  });

  const organisation = (name: string) =>
    stripe.customers.create({ name, email: `billing-${Date.now()}@example.jp` });

  it('bills seats on an invoice due in 30 days, with the transfer details, and marks it paid once funded in full', async () => {
    const customer = await organisation('株式会社サンプル');
    const { subscription, invoiceId } = await startInvoiceSubscription(database.db, {
      customerId: customer.id,
      priceId: seatPrice.id,
      seats: 3,
      actor: ADMIN,
    });
    expect(subscription.status).toBe('active');
    const sent = await invoiceDocument(database.db, invoiceId, customer.id);
    expect(sent).toMatchObject({
      status: 'open',
      addressee: '株式会社サンプル',
      total: 33000,
      amountRemaining: 33000,
      received: 0,
      taxes: [{ rate: 10, taxable: 30000, tax: 3000 }],
      lines: [
        { product: '法人プラン', kind: 'period', quantity: 3, unitAmount: 11000, amount: 33000 },
      ],
      bankAccount: { accountType: '普通', bankName: expect.any(String) as string },
    });
    const issued = Date.parse(sent?.issuedAt ?? '');
    expect(Date.parse(sent?.dueDate ?? '') - issued).toBe(30 * DAY * 1000);
    // Someone else's customer id: not found, as an unknown invoice.
    expect(await invoiceDocument(database.db, invoiceId, 'cus_other')).toBeNull();
    expect(await invoiceDocument(database.db, 'in_missing', null)).toBeNull();

    const partial = await fundBankTransfer(database.db, customer.id, 20000, 'ｶ)ｻﾝﾌﾟﾙ');
    expect(partial.held).toBe(20000);
    expect(await invoiceDocument(database.db, invoiceId, customer.id)).toMatchObject({
      status: 'open',
      received: 20000,
      amountRemaining: 33000,
    });
    const rest = await fundBankTransfer(database.db, customer.id, 13000);
    expect(rest.held).toBe(0);
    const paid = await invoiceDocument(database.db, invoiceId, customer.id);
    expect(paid).toMatchObject({ status: 'paid', amountRemaining: 0, received: 0 });
    expect(paid?.paidAt).toEqual(expect.any(String));
  });

  it('adds seats now on a prorated invoice, and removes them at renewal keeping the paid ones usable', async () => {
    const customer = await organisation('合同会社テスト');
    const { subscription } = await startInvoiceSubscription(database.db, {
      customerId: customer.id,
      priceId: seatPrice.id,
      seats: 2,
      actor: ADMIN,
    });
    const now = Math.floor(Date.now() / 1000);
    const added = await changeSeats(database.db, subscription.id, 4, now, ADMIN);
    expect(added.invoiceId).not.toBeNull();
    const proration = await invoiceDocument(database.db, added.invoiceId ?? '', customer.id);
    expect(proration?.lines.map((line) => [line.kind, line.quantity])).toEqual([
      ['credit', 2],
      ['prorated', 4],
    ]);
    expect(proration?.total).toBeGreaterThan(0);
    expect(proration?.total).toBeLessThanOrEqual(22000);

    const removed = await changeSeats(database.db, subscription.id, 1, now, ADMIN);
    expect(removed.invoiceId).toBeNull();
    expect(removed.subscription.items.data[0]?.quantity).toBe(1);
    expect(usableSeats(removed.subscription, now)).toBe(4);
    const periodEnd = removed.subscription.items.data[0]?.current_period_end ?? 0;
    expect(usableSeats(removed.subscription, periodEnd)).toBe(1);
    const audit = await listAudit(database.db, 20);
    expect(audit.filter((entry) => entry.action === 'billing.seats.changed')).toHaveLength(2);
    expect(audit.find((entry) => entry.action === 'billing.seats.changed')).toMatchObject({
      actor: 'user:org-admin-1',
      target: `subscription:${subscription.id}`,
    });
    await expect(changeSeats(database.db, subscription.id, 0, now, ADMIN)).rejects.toThrow('席数');
  });

  it('is overdue from the due date and suspended once the grace period has passed', async () => {
    const due = 1_800_000_000;
    const open = [{ id: 'in_1', dueDate: due, amountRemaining: 5000 }];
    expect(standingOf(open, 14, due - 1)).toEqual({ state: 'current' });
    expect(standingOf(open, 14, due)).toMatchObject({
      state: 'overdue',
      suspendsAt: due + 14 * DAY,
    });
    expect(standingOf(open, 14, due + 14 * DAY)).toMatchObject({ state: 'suspended' });
    const customer = await organisation('株式会社ヨテイ');
    await startInvoiceSubscription(database.db, {
      customerId: customer.id,
      priceId: seatPrice.id,
      seats: 1,
      actor: ADMIN,
    });
    const now = Math.floor(Date.now() / 1000);
    expect(await invoiceStanding(database.db, customer.id, 14, now)).toEqual({ state: 'current' });
    expect(await invoiceStanding(database.db, customer.id, 14, now + 45 * DAY)).toMatchObject({
      state: 'suspended',
      amountRemaining: 11000,
    });
  });

  it('quotes seats × the unit price with the tax, and nothing for a price that cannot be ordered', async () => {
    const quote = await quoteDocument(
      database.db,
      seatPrice.id,
      5,
      new Date('2027-04-01T00:00:00Z'),
    );
    expect(quote).toMatchObject({
      product: '法人プラン',
      interval: 'month',
      seats: 5,
      unitAmount: 11000,
      total: 55000,
      taxes: [{ rate: 10, taxable: 50000, tax: 5000 }],
      validUntil: '2027-05-01T00:00:00.000Z',
    });
    expect(await quoteDocument(database.db, 'price_missing', 5, new Date())).toBeNull();
  });

  it('funds a customer from the admin command, refusing bad flags', async () => {
    const customer = await organisation('株式会社コマンド');
    const ctx = { database, actor: 'cli:test' };
    const lines = await runAdminCommand(ctx, 'billing-bank-transfer', {
      customer: customer.id,
      amount: '5000',
    });
    expect(lines.at(-1)).toContain('¥5,000');
    await expect(
      runAdminCommand(ctx, 'billing-bank-transfer', { customer: customer.id, amount: '-3' }),
    ).rejects.toThrow('--amount');
    await expect(
      runAdminCommand(ctx, 'billing-bank-transfer', { customer: 'cus_nobody', amount: '100' }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});
