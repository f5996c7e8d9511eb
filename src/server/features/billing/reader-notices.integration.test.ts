import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAdminCommand } from '@/server/features/admin/commands';
import type { Database } from '@/server/platform/db/client';
import {
  auditEvents,
  billingInvoices,
  billingNotifications,
  subscriptions,
} from '@/server/platform/db/schema';
import { findUserByEmail } from '@/server/features/profiles/profiles';
import { createTestDatabase } from '@test-support/db/test-database';
import {
  type InvoiceReader,
  PLAN_ENDED_NOTICE_DAYS,
  hasBillingNotice,
  pastDueNoticeFor,
  readerBillingNotice,
} from './reader-notices';

/**
 * The billing notices against a real database: subscription and invoice rows as billing stores
 * them; only the provider's invoice (its next retry) is a stand-in.
 */

const DAY = 86_400_000;
const NOW = new Date('2026-11-27T03:00:00.000Z');

let database: Database;
let n = 0;

async function reader(
  rows: Partial<typeof subscriptions.$inferInsert>[],
  invoice?: { id: string; total: number },
): Promise<string> {
  const email = `reader-${++n}@example.jp`;
  await runAdminCommand({ database, actor: 'cli:test' }, 'create-user', {
    email,
    password: 'kumo-no-ue-no-sora',
    role: 'member',
  });
  const user = (await findUserByEmail(database.db, email))!;
  for (const [i, row] of rows.entries()) {
    await database.db.insert(subscriptions).values({
      id: `sub_${n}_${i}`,
      userId: user.id,
      provider: 'stripe',
      status: 'active',
      planName: '月額プラン',
      createdAt: new Date(NOW.getTime() - (100 - i) * DAY),
      ...row,
    });
  }
  if (invoice) {
    await database.db.insert(billingInvoices).values({
      id: invoice.id,
      userId: user.id,
      customerId: 'cus_1',
      status: 'open',
      currency: 'jpy',
      total: invoice.total,
      tax: 100,
      lines: [],
      createdAt: NOW,
    });
  }
  return user.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('the past_due notice', () => {
  it('states the unpaid amount and the provider’s next retry', async () => {
    const userId = await reader([{ status: 'past_due', latestInvoiceId: 'in_due' }], {
      id: 'in_due',
      total: 1100,
    });
    const readInvoice = vi.fn<InvoiceReader>(() =>
      Promise.resolve({ amountDue: 1100, nextAttempt: new Date('2026-11-30T03:00:00.000Z') }),
    );
    await expect(
      readerBillingNotice(database.db, userId, { now: NOW, readInvoice }),
    ).resolves.toEqual({
      kind: 'past_due',
      amount: 1100,
      nextAttempt: '2026-11-30T03:00:00.000Z',
    });
    expect(readInvoice).toHaveBeenCalledWith(database.db, 'in_due');
    // The plans page asks for the same, without touching the one-time notices.
    await expect(pastDueNoticeFor(database.db, userId, { readInvoice })).resolves.toMatchObject({
      amount: 1100,
      nextAttempt: '2026-11-30T03:00:00.000Z',
    });
  });

  it('keeps the stored amount when the provider cannot be reached, and promises no date', async () => {
    const userId = await reader([{ status: 'past_due', latestInvoiceId: 'in_due2' }], {
      id: 'in_due2',
      total: 11000,
    });
    const readInvoice: InvoiceReader = () => Promise.reject(new Error('offline'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(
      readerBillingNotice(database.db, userId, { now: NOW, readInvoice }),
    ).resolves.toEqual({
      kind: 'past_due',
      amount: 11000,
      nextAttempt: null,
    });
  });

  it('links a renewal’s 3-D Secure page, and only if it is a web page', async () => {
    const userId = await reader([{ status: 'past_due', latestInvoiceId: 'in_3ds' }], {
      id: 'in_3ds',
      total: 1100,
    });
    const waiting =
      (authenticationUrl: string): InvoiceReader =>
      () =>
        Promise.resolve({ amountDue: 1100, nextAttempt: null, authenticationUrl });
    const url = 'https://invoice.stripe.com/i/acct_1/test_1';
    await expect(
      pastDueNoticeFor(database.db, userId, { readInvoice: waiting(url) }),
    ).resolves.toEqual({
      kind: 'past_due',
      amount: 1100,
      nextAttempt: null,
      authenticationUrl: url,
    });
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'not a url'])
      await expect(
        pastDueNoticeFor(database.db, userId, { readInvoice: waiting(bad) }),
      ).resolves.toEqual({ kind: 'past_due', amount: 1100, nextAttempt: null });
  });

  it('is nothing for a paid plan', async () => {
    const userId = await reader([{ status: 'active' }]);
    await expect(readerBillingNotice(database.db, userId, { now: NOW })).resolves.toBeNull();
  });
});

describe('the plan-ended notice', () => {
  it('is shown once, then never again for that plan', async () => {
    const endedAt = new Date(NOW.getTime() - 2 * DAY);
    const userId = await reader([{ status: 'canceled', canceledAt: endedAt }]);
    await expect(readerBillingNotice(database.db, userId, { now: NOW })).resolves.toEqual({
      kind: 'plan_ended',
      planName: '月額プラン',
      endedAt: endedAt.toISOString(),
    });
    // Concurrent visits (two tabs, two instances): one of them tells.
    const again = await Promise.all([
      readerBillingNotice(database.db, userId, { now: NOW }),
      readerBillingNotice(database.db, userId, { now: NOW }),
    ]);
    expect(again).toEqual([null, null]);
  });

  it('tells each plan’s end once: a later plan that ends is told too', async () => {
    const userId = await reader([
      { status: 'canceled', canceledAt: new Date(NOW.getTime() - 3 * DAY) },
    ]);
    expect((await readerBillingNotice(database.db, userId, { now: NOW }))?.kind).toBe('plan_ended');
    await database.db.insert(subscriptions).values({
      id: `sub_${n}_later`,
      userId,
      provider: 'stripe',
      status: 'canceled',
      planName: '年額プラン',
      canceledAt: NOW,
      createdAt: NOW,
    });
    await expect(readerBillingNotice(database.db, userId, { now: NOW })).resolves.toMatchObject({
      kind: 'plan_ended',
      planName: '年額プラン',
    });
  });

  it('says nothing while another plan is live, or for a plan that ended long ago', async () => {
    const renewed = await reader([
      { status: 'canceled', canceledAt: new Date(NOW.getTime() - DAY) },
      { status: 'active' },
    ]);
    await expect(readerBillingNotice(database.db, renewed, { now: NOW })).resolves.toBeNull();
    const old = await reader([
      {
        status: 'canceled',
        canceledAt: new Date(NOW.getTime() - (PLAN_ENDED_NOTICE_DAYS + 1) * DAY),
      },
    ]);
    await expect(readerBillingNotice(database.db, old, { now: NOW })).resolves.toBeNull();
  });
});

describe('the reversed second plan', () => {
  /** A reversal as one-plan.ts records it: the kept plan live, the second cancelled, audited. */
  async function reversed(refunded: number): Promise<string> {
    const userId = await reader([
      { status: 'active', planName: 'メンバーシップ 月額プラン' },
      { status: 'canceled', planName: 'メンバーシップ 年額プラン', canceledAt: NOW },
    ]);
    // Recorded at the test's NOW, not the machine's: the notice window is counted from it.
    await database.db.insert(auditEvents).values({
      actor: 'billing',
      action: 'billing.subscription.duplicate-reversed',
      target: userId,
      occurredAt: NOW,
      detail: {
        subscription: `sub_${n}_1`,
        kept: `sub_${n}_0`,
        refunded,
        plan: 'メンバーシップ 年額プラン',
      },
    });
    return userId;
  }

  it('tells the reader once what was refunded and which plan remains', async () => {
    const userId = await reversed(11000);
    const told = await Promise.all([
      readerBillingNotice(database.db, userId, { now: NOW }),
      readerBillingNotice(database.db, userId, { now: NOW }),
    ]);
    expect(told.filter(Boolean)).toEqual([
      {
        kind: 'duplicate_reversed',
        reversedPlan: 'メンバーシップ 年額プラン',
        keptPlan: 'メンバーシップ 月額プラン',
        refunded: 11000,
      },
    ]);
    await expect(readerBillingNotice(database.db, userId, { now: NOW })).resolves.toBeNull();
  });

  it('waits while a renewal is unpaid (that notice comes first), and not past the notice window', async () => {
    const userId = await reversed(0);
    await database.db
      .update(subscriptions)
      .set({ status: 'past_due' })
      .where(eq(subscriptions.id, `sub_${n}_0`));
    expect((await readerBillingNotice(database.db, userId, { now: NOW }))?.kind).toBe('past_due');
    await database.db
      .update(subscriptions)
      .set({ status: 'active' })
      .where(eq(subscriptions.id, `sub_${n}_0`));
    const later = new Date(NOW.getTime() + (PLAN_ENDED_NOTICE_DAYS + 1) * DAY);
    await expect(readerBillingNotice(database.db, userId, { now: later })).resolves.toBeNull();
    await expect(readerBillingNotice(database.db, userId, { now: NOW })).resolves.toMatchObject({
      kind: 'duplicate_reversed',
      refunded: 0,
    });
  });

  it('names the kept plan, not the reversed one, when the kept plan ends later', async () => {
    const userId = await reversed(11000);
    expect((await readerBillingNotice(database.db, userId, { now: NOW }))?.kind).toBe(
      'duplicate_reversed',
    );
    await database.db.insert(billingNotifications).values({ key: `duplicate:sub_${n}_1` });
    await database.db
      .update(subscriptions)
      .set({ status: 'canceled', canceledAt: NOW })
      .where(eq(subscriptions.id, `sub_${n}_0`));
    await expect(readerBillingNotice(database.db, userId, { now: NOW })).resolves.toMatchObject({
      kind: 'plan_ended',
      planName: 'メンバーシップ 月額プラン',
    });
  });
});

describe('whether a reader has a notice (the front server renders their pages for them alone)', () => {
  const has = (userId: string, now = NOW) => hasBillingNotice(database.db, userId, { now });

  it('answers as the notice would, without asking the provider or telling anything', async () => {
    const pastDue = await reader([{ status: 'past_due', latestInvoiceId: 'in_due3' }], {
      id: 'in_due3',
      total: 1100,
    });
    await expect(has(pastDue)).resolves.toBe(true);
    await expect(has(await reader([{ status: 'active' }]))).resolves.toBe(false);
    await expect(has(await reader([]))).resolves.toBe(false);

    const ended = await reader([{ status: 'canceled', canceledAt: new Date(NOW.getTime() - DAY) }]);
    await expect(has(ended)).resolves.toBe(true);
    await expect(has(ended)).resolves.toBe(true); // looking tells nothing
    expect((await readerBillingNotice(database.db, ended, { now: NOW }))?.kind).toBe('plan_ended');
    await expect(has(ended)).resolves.toBe(false); // told once: nothing more to show
    await expect(
      has(ended, new Date(NOW.getTime() + (PLAN_ENDED_NOTICE_DAYS + 1) * DAY)),
    ).resolves.toBe(false);
  });
});
