import { formatDateJa, formatYen } from './format';

/**
 * The site-wide billing notice of a signed-in reader (rendered on the server under the header,
 * src/components/billing/billing-notice-banner.tsx, and at the top of the account hub):
 * - `past_due`: the current live plan's renewal failed: what is owed and when the provider
 *   tries the card again (null when the billing data does not say); or it waits for the
 *   reader's 3-D Secure authentication, with the page to do it on.
 * - `plan_ended`: the reader's plan has ended; said once (the server records that it was
 *   shown: src/server/features/billing/reader-notices.ts), never again for that plan.
 * - `duplicate_reversed`: a second paid plan the reader took out was cancelled and refunded
 *   (one plan per reader: docs/decisions/021-one-plan-per-reader.md); said once, like the end
 *   of a plan: which plan was taken back, how much was refunded (yen, 0 when nothing was
 *   charged) and which plan remains.
 */
export type BillingNotice =
  | {
      kind: 'past_due';
      amount: number | null;
      nextAttempt: string | null;
      /**
       * The card issuer's 3-D Secure page (the provider's hosted invoice page) when the renewal
       * waits for the reader's authentication rather than failed; absent or null otherwise.
       */
      authenticationUrl?: string | null;
    }
  | { kind: 'plan_ended'; planName: string; endedAt: string }
  | { kind: 'duplicate_reversed'; reversedPlan: string; keptPlan: string; refunded: number }
  | null;

const LIVE = new Set<string>(['active', 'trialing', 'past_due']);

/**
 * The reader's current live plan — the newest active, trialing or past_due subscription, as the
 * plans page takes it — when its renewal failed.
 */
export function pastDuePlanOf<T extends { status: string }>(subscriptions: readonly T[]): T | null {
  const current = subscriptions.find((subscription) => LIVE.has(subscription.status));
  return current?.status === 'past_due' ? current : null;
}

/** The notice in words: amounts in yen, dates in Japan time. */
export function billingNoticeText(notice: NonNullable<BillingNotice>): string {
  if (notice.kind === 'duplicate_reversed') {
    const kept = notice.keptPlan || '有料プラン';
    const reversed = notice.reversedPlan || 'プラン';
    const refund =
      notice.refunded > 0
        ? `は取り消し、お支払いいただいた ${formatYen(notice.refunded)} を全額返金しました。`
        : 'は取り消しました（請求はしていません）。';
    return `すでに${kept}をご利用中のため、あとからお申し込みいただいた${reversed}${refund}${notice.keptPlan || 'ご利用中のプラン'}はこれまでどおり続きます。`;
  }
  if (notice.kind === 'plan_ended') {
    const plan = notice.planName || '有料プラン';
    return `${plan}は${formatDateJa(notice.endedAt)}に終了しました。有料会員限定の記事・音声・動画をご利用いただくには、もう一度お申し込みください。`;
  }
  const amount = notice.amount !== null ? `（${formatYen(notice.amount)}）` : '';
  if (notice.authenticationUrl) {
    return `カードでのお支払い${amount}に、カード発行会社の本人認証（3Dセキュア）が必要です。認証を済ませると、お支払いが完了します。`;
  }
  const retry = notice.nextAttempt
    ? `${formatDateJa(notice.nextAttempt)}に自動で再度決済します。それまでに`
    : '';
  return `カードでのお支払い${amount}ができませんでした。${retry}カード情報を更新してください。`;
}
