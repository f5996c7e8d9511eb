import type { SubscriptionRecord } from './auth-state';

/**
 * The site-wide billing notice of a signed-in reader (carried by /api/me): 'past_due' when the
 * reader's current live plan — the newest active, trialing or past_due subscription, as the
 * plans page takes it — could not be renewed because the card payment failed.
 */
export type BillingNotice = 'past_due' | null;

const LIVE = new Set<string>(['active', 'trialing', 'past_due']);

export function billingNoticeOf(
  subscriptions: readonly Pick<SubscriptionRecord, 'status'>[],
): BillingNotice {
  const current = subscriptions.find((subscription) => LIVE.has(subscription.status));
  return current?.status === 'past_due' ? 'past_due' : null;
}
