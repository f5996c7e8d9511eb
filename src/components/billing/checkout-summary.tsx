import { formatYen } from '@/lib/format';
import type { OfferTerms } from '@/lib/billing/offer-terms';
import {
  type PlanView,
  addDays,
  contractTerm,
  formatDate,
  includedTax,
  planPrice,
  renewalEvery,
} from './billing-format';
import styles from './checkout-summary.module.css';

/** A 法人プラン's seats on the confirmation screen: how many, and how it is cancelled. */
export type SeatsTerms = { count: number; cancel: string };

/** What N seats cost per period: the plan's price times the seats. */
export const seatsTotal = (plan: PlanView, seats: SeatsTerms) => plan.amount * seats.count;

/**
 * The final confirmation terms in brief, at the top of the confirmation screen (a phone shows
 * them whole above the fold, 360 × 740): what is bought, the price with tax, the trial and the
 * first charge, the renewal and its charge, how to cancel, how it is paid and when it starts.
 * The full table follows on the same screen (CheckoutConfirmation); both read the same inputs.
 */
export function CheckoutSummary({
  plan,
  trialDays,
  now,
  offer,
  seats,
}: {
  plan: PlanView;
  trialDays: number;
  now: Date;
  offer: { terms: OfferTerms } | null;
  /** 法人プラン: the seats paid for, each at the plan's price (no trial, no offer). */
  seats?: SeatsTerms;
}) {
  if (seats) return <SeatsSummary plan={plan} seats={seats} />;
  const trial = trialDays > 0;
  const firstCharge = formatDate(addDays(now, trialDays));
  const term = contractTerm(plan.interval, plan.intervalCount);
  const every = renewalEvery(plan.interval, plan.intervalCount);
  const charge = offer
    ? `${formatYen(plan.amount)}（税込。割引の適用中は ${formatYen(offer.terms.discounted)}）`
    : `${formatYen(plan.amount)}（税込）`;
  const rows: [string, string][] = [
    ['プラン', `${plan.name}（1アカウント、会員限定の記事・音声・動画）`],
    [
      '価格（税込）',
      offer
        ? `${offer.terms.label}。${offer.terms.after}`
        : `${planPrice(plan)}（うち消費税 ${formatYen(includedTax(plan.amount))}）`,
    ],
    ...(trial
      ? ([['無料期間', `最初の ${trialDays} 日間は無料。${firstCharge}に初回分を決済`]] as [
          string,
          string,
        ][])
      : []),
    ['自動更新', `解約されるまで${term}ごとに自動更新し、${every}の更新日に ${charge}を決済`],
    [
      '解約',
      trial
        ? `「プランの管理」からいつでも。${firstCharge}の前日までに解約すれば料金はかかりません`
        : '「プランの管理」からいつでも。次回更新日の前日までに解約すれば以後の請求はありません',
    ],
    [
      '支払・開始',
      `クレジットカード（次の画面で入力）。${trial ? 'お申し込み直後' : '決済の完了後'}からすぐに利用できます`,
    ],
  ];
  return <SummaryRows rows={rows} />;
}

/** The terms in brief as one list of label and text, as both summaries show them. */
function SummaryRows({ rows }: { rows: [string, string][] }) {
  return (
    <section aria-label="お申し込み内容（要点）">
      <dl className={styles.summary}>
        {rows.map(([label, text]) => (
          <div key={label} className={styles.row}>
            <dt>{label}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The same terms in brief for a 法人プラン's seats. */
function SeatsSummary({ plan, seats }: { plan: PlanView; seats: SeatsTerms }) {
  const term = contractTerm(plan.interval, plan.intervalCount);
  const every = renewalEvery(plan.interval, plan.intervalCount);
  const total = seatsTotal(plan, seats);
  const rows: [string, string][] = [
    ['プラン', `${plan.name}（法人プラン ${seats.count} 席、会員限定の記事・音声・動画）`],
    [
      '価格（税込）',
      `${formatYen(plan.amount)} × ${seats.count} 席 = ${planPrice({ ...plan, amount: total })}（うち消費税 ${formatYen(includedTax(total))}）`,
    ],
    [
      '自動更新',
      `解約されるまで${term}ごとに自動更新し、${every}の更新日に ${formatYen(total)}（税込）を決済`,
    ],
    ['解約', seats.cancel],
    ['支払・開始', 'クレジットカード（次の画面で入力）。決済の完了後からすぐに利用できます'],
  ];
  return <SummaryRows rows={rows} />;
}
