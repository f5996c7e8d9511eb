import { formatDateJa, formatYen } from './format';
import { z } from './zod';

/**
 * The site-wide billing notice of a signed-in reader (carried by /api/me, shown under the
 * header):
 * - `past_due`: the current live plan's renewal failed: what is owed and when the provider
 *   tries the card again (null when the billing data does not say).
 * - `plan_ended`: the reader's plan has ended; said once (the server records that it was
 *   shown: src/server/billing/reader-notices.ts), never again for that plan.
 */
export const billingNoticeSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('past_due'),
      amount: z.number().int().nonnegative().nullable(),
      nextAttempt: z.iso.datetime({ offset: true }).nullable(),
    }),
    z.object({
      kind: z.literal('plan_ended'),
      planName: z.string().max(200),
      endedAt: z.iso.datetime({ offset: true }),
    }),
  ])
  .nullable();

export type BillingNotice = z.infer<typeof billingNoticeSchema>;

/** An answer's notice, or none when it is missing or not one (an older server, a bad answer). */
export function parseBillingNotice(value: unknown): BillingNotice {
  const parsed = billingNoticeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

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
  if (notice.kind === 'plan_ended') {
    const plan = notice.planName || '有料プラン';
    return `${plan}は${formatDateJa(notice.endedAt)}に終了しました。有料会員限定の記事・音声・動画をご利用いただくには、もう一度お申し込みください。`;
  }
  const amount = notice.amount !== null ? `（${formatYen(notice.amount)}）` : '';
  const retry = notice.nextAttempt
    ? `${formatDateJa(notice.nextAttempt)}に自動で再度決済します。それまでに`
    : '';
  return `カードでのお支払い${amount}ができませんでした。${retry}カード情報を更新してください。`;
}
