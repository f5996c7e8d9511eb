import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { customerIdOf } from './customers';
import { billingProvider } from './provider';

/**
 * Deleting an account first cancels, at the provider, every subscription of the reader's
 * customer that could still charge, as of now (no refund, no final invoice). Read from the
 * provider, not the site's records, which a webhook may not have reached yet. A failure
 * throws: the account must not go while its card can still be charged.
 */
const ENDED = new Set(['canceled', 'incomplete_expired']);

export async function cancelProviderSubscriptions(db: Db, userId: string): Promise<number> {
  const customerId = await customerIdOf(db, userId);
  if (!customerId) return 0;
  const { stripe } = await billingProvider(db);
  let canceled = 0;
  for await (const subscription of stripe.subscriptions.list({
    customer: customerId,
    status: 'all',
    limit: 100,
  })) {
    if (ENDED.has(subscription.status)) continue;
    await stripe.subscriptions.cancel(subscription.id, undefined, {
      idempotencyKey: `account-closure-${subscription.id}`,
    });
    canceled++;
  }
  return canceled;
}
