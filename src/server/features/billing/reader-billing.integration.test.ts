import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '@/server/features/admin/commands';
import type { Database } from '@/server/platform/db/client';
import { billingInvoices, billingNotifications, subscriptions } from '@/server/platform/db/schema';
import { findUserByEmail } from '@/server/features/profiles/profiles';
import { createTestDatabase } from '@test-support/db/test-database';
import { duplicateClaimKey } from './one-plan';
import { findReceipt, listReceipts } from './reader-billing';

/** Receipts from the site's records: only money the reader paid and kept paid. */

let database: Database;
let userId: string;

const invoice = (id: string, subscriptionId: string) => ({
  id,
  userId,
  customerId: 'cus_r',
  subscriptionId,
  number: `R-${id}`,
  status: 'paid',
  currency: 'jpy',
  total: 1100,
  tax: 100,
  lines: [],
  paidAt: new Date('2026-11-20T03:00:00Z'),
  createdAt: new Date('2026-11-20T03:00:00Z'),
});

beforeAll(async () => {
  database = await createTestDatabase();
  await runAdminCommand({ database, actor: 'cli:test' }, 'create-user', {
    email: 'receipts@example.jp',
    password: 'kumo-no-ue-no-sora',
    role: 'member',
  });
  userId = (await findUserByEmail(database.db, 'receipts@example.jp'))!.id;
  for (const [id, status] of [
    ['sub_kept', 'active'],
    ['sub_second', 'canceled'],
  ] as const) {
    await database.db
      .insert(subscriptions)
      .values({ id, userId, provider: 'stripe', status, planName: '月額プラン' });
  }
  await database.db
    .insert(billingInvoices)
    .values([invoice('in_kept', 'sub_kept'), invoice('in_second', 'sub_second')]);
  // The second plan was reversed: its payment refunded (src/server/features/billing/one-plan.ts).
  await database.db.insert(billingNotifications).values({ key: duplicateClaimKey('sub_second') });
});
afterAll(async () => {
  await database.close();
});

describe('receipts', () => {
  it('leaves out the payments of a second plan that was taken back and refunded', async () => {
    expect((await listReceipts(database.db, userId)).map((receipt) => receipt.id)).toEqual([
      'in_kept',
    ]);
    await expect(findReceipt(database.db, userId, 'in_second')).resolves.toBeNull();
    await expect(findReceipt(database.db, userId, 'in_kept')).resolves.toMatchObject({
      number: 'R-in_kept',
    });
  });
});
