import 'server-only';
import { and, eq, gte } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { purchases } from '@/server/platform/db/schema';

/** A paid one-time payment as the business report counts it: what, for which item, how much. */
export type PaidPayment = {
  kind: 'post' | 'tip' | 'gift-plan';
  endpoint: string | null;
  contentId: string | null;
  amount: number;
  paidAt: Date;
};

/**
 * The one-time payments paid since `since` and still paid (a refunded one is no revenue): the
 * revenue dashboard's input (src/server/features/analytics/business-report.ts).
 */
export async function paidPaymentsSince(db: Db, since: Date): Promise<PaidPayment[]> {
  const rows = await db
    .select({
      kind: purchases.kind,
      endpoint: purchases.endpoint,
      contentId: purchases.contentId,
      amount: purchases.amount,
      paidAt: purchases.paidAt,
    })
    .from(purchases)
    .where(and(eq(purchases.state, 'paid'), gte(purchases.paidAt, since)));
  return rows.flatMap((row) => (row.paidAt ? [{ ...row, paidAt: row.paidAt }] : []));
}
