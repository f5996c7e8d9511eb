import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { formatYen } from '@/lib/format';
import {
  CONSUMPTION_TAX_RATE,
  type PlanView,
  addDays,
  contractTerm,
  formatDate,
  includedTax,
  planPrice,
  renewalEvery,
} from './billing-format';
import styles from './billing.module.css';
import { CheckoutForm } from './checkout-form.client';
import { CheckoutSummary, type SeatsTerms, seatsTotal } from './checkout-summary';
import screen from './checkout-summary.module.css';
import { OfferMessage, PageNotice } from './page-notice';
import type { OfferTerms } from '@/lib/billing/offer-terms';
import { plansPath } from '@/lib/confirm-path';

/**
 * The final confirmation screen (最終確認画面) of the 2022 amendment of the 特定商取引法
 * (Article 12-6): before the provider's checkout, everything the reader agrees to in one
 * table — what is bought, the price with tax, how and when it is paid, that it renews on its
 * own (and the price after a trial, and the day of the first charge), when the service starts,
 * and how and until when it can be cancelled. Nothing is charged before the next screen.
 */

export type CheckoutConfirmationProps = {
  plan: PlanView;
  /** Free days this reader's checkout starts with (0: none). */
  trialDays: number;
  /** Whether the site offers a trial at all (BILLING_TRIAL_DAYS > 0). */
  trialOffered: boolean;
  /** Today, for the first charge's date (shown in Japan time). */
  now: Date;
  /** A one-time message from a refused checkout (e.g. already subscribed). */
  errorMessage?: string | null;
  /** The page the reader came from (a safe local path): the path ends back on it. */
  next?: string;
  /**
   * For a visitor: the e-mail address and the consent, in place of the checkout button
   * (guest-checkout-form.tsx): the button goes on to the card form.
   */
  signUp?: ReactNode;
  /**
   * A valid offer's code and its terms on this plan (the checkout applies it). Readers see the
   * offer by its terms on this plan (`terms.name`), not by the name staff gave the coupon.
   */
  offer?: { code: string; terms: OfferTerms } | null;
  /** Why the code the reader came with cannot be used (the regular price is shown). */
  offerMessage?: string | null;
  /**
   * 法人プラン: the seats the organisation pays for (no trial, no offer), with `signUp` holding
   * its checkout form and `back` the way back to its page.
   */
  seats?: SeatsTerms;
  back?: { href: string; label: string };
};

export const NO_CHARGE_YET =
  'この画面の次の決済画面でカード情報を入力するまで、料金は発生しません。';

export function CheckoutConfirmation({
  plan,
  trialDays,
  trialOffered,
  now,
  errorMessage,
  next = '/',
  signUp,
  offer = null,
  offerMessage = null,
  seats,
  back,
}: CheckoutConfirmationProps) {
  const trial = trialDays > 0;
  // Seats: every amount below is the seats' total, each seat at the plan's price.
  const total = seats ? seatsTotal(plan, seats) : plan.amount;
  const firstCharge = formatDate(addDays(now, trialDays));
  const every = renewalEvery(plan.interval, plan.intervalCount);
  const term = contractTerm(plan.interval, plan.intervalCount);
  const price = planPrice({ ...plan, amount: total });
  const rows: { label: string; body: ReactNode }[] = [
    {
      label: '商品（サービス）名',
      body: (
        <>
          <p>{seats ? `${plan.name}（法人プラン ${seats.count} 席）` : plan.name}</p>
          <p className={styles.small}>
            {seats
              ? `会員限定の記事、音声、動画をすべてご利用いただける有料会員プランを、組織のメンバー ${seats.count} 名までご利用いただけます（1 席 1 名）`
              : '会員限定の記事、音声、動画をすべてご利用いただける有料会員プラン（1アカウント）'}
          </p>
        </>
      ),
    },
    {
      label: '価格（税込）',
      body: offer ? (
        <>
          <p className={styles.amount}>{offer.terms.label}</p>
          <p>
            割引後のお支払い（税込）{formatYen(offer.terms.discounted)}、うち消費税（
            {CONSUMPTION_TAX_RATE}%） {formatYen(includedTax(offer.terms.discounted))}
          </p>
          <p>{offer.terms.after}</p>
          <p>
            通常価格 {price}、うち消費税（{CONSUMPTION_TAX_RATE}%）{' '}
            {formatYen(includedTax(plan.amount))}
          </p>
          <p className={styles.small}>
            クーポンコード「{offer.code}」（{offer.terms.name}）を適用します。
          </p>
        </>
      ) : (
        <>
          <p className={styles.amount}>{price}</p>
          {seats ? (
            <p>
              1 席 {formatYen(plan.amount)} × {seats.count} 席
            </p>
          ) : null}
          <p>
            うち消費税（{CONSUMPTION_TAX_RATE}%） {formatYen(includedTax(total))}
          </p>
          {trial ? (
            <p>
              最初の {trialDays} 日間は無料です。無料期間の後は {price} です。
            </p>
          ) : null}
          <p className={styles.small}>
            このほかにかかる料金はありません（インターネットの通信料はお客様のご負担です）。
          </p>
        </>
      ),
    },
    {
      label: '契約期間',
      body: (
        <p>
          {term}（{term}ごとに自動更新）
        </p>
      ),
    },
    {
      label: '支払方法',
      body: <p>クレジットカード（この次の決済画面で入力します）</p>,
    },
    {
      label: '支払時期',
      body: trial ? (
        <p>
          無料体験終了日（{firstCharge}）に初回分を決済し、以後は{every}の更新日に自動で決済します。
        </p>
      ) : (
        <p>申込み時に初回分を決済し、以後は{every}の更新日に自動で決済します。</p>
      ),
    },
    {
      label: '自動更新',
      body: (
        <>
          <p>
            解約されるまで、{term}ごとに自動で更新されます。更新のたびに {formatYen(total)}
            （税込）を決済します。
          </p>
          {offer ? (
            <p>
              割引の適用中は {formatYen(offer.terms.discounted)}（税込）を決済します（
              {offer.terms.charges === null ? '解約されるまで毎回' : offer.terms.lead}）。
            </p>
          ) : null}
          {trial ? (
            <p>無料体験の終了後は、自動で有料のご利用（{price}）に切り替わります。</p>
          ) : null}
        </>
      ),
    },
    {
      label: '提供開始時期',
      body: trial ? (
        <p>お申し込みの手続きが完了した直後から、すぐにご利用いただけます。</p>
      ) : (
        <p>決済の完了後、すぐにご利用いただけます。</p>
      ),
    },
    {
      label: '解約方法と期限',
      body: (
        <>
          <p>
            {seats?.cancel ??
              '料金プランのページの「プランの管理」からいつでも解約でき、次回更新日の前日までに解約すれば次回以降の請求はありません。'}
          </p>
          {trial ? (
            <p>
              無料体験期間中に解約すれば、料金はかかりません（{firstCharge}
              の前日までに解約してください）。
            </p>
          ) : null}
          <p>
            解約後も、お支払い済みの期間の終わりまでご利用いただけます。期間の途中で解約しても、日割りでの返金はありません。
          </p>
        </>
      ),
    },
  ];
  if (trial) {
    rows.push({
      label: '無料体験',
      body: (
        <p>
          {trialDays} 日間（初回の決済日は {firstCharge}
          ）。無料体験は、おひとり様1回限りです。
        </p>
      ),
    });
  } else if (trialOffered) {
    rows.push({
      label: '無料体験',
      // An offer replaces the trial (checkout.ts): that is the reason, whoever the reader is.
      body: offer ? (
        <p>
          クーポンコード「{offer.code}
          」の割引を適用するため、無料体験はつきません（割引との併用はできません）。
        </p>
      ) : (
        <p>
          対象外です（無料体験は、初めて有料プランをお申し込みになる方に限ります。おひとり様1回限り）。
        </p>
      ),
    });
  }

  return (
    <div className={`${styles.page} ${styles.narrow} ${screen.screen}`}>
      <h1 className={styles.title}>お申し込み内容の確認</h1>
      <OfferMessage message={offerMessage} />
      {errorMessage ? (
        <PageNotice tone="error">
          <p>{errorMessage}</p>
        </PageNotice>
      ) : null}
      {/* The terms in brief first: a phone shows them whole above the fold, the form below. */}
      <CheckoutSummary plan={plan} trialDays={trialDays} now={now} offer={offer} seats={seats} />
      <section aria-label="お申し込み" className={styles.checkoutBox}>
        <p>
          <strong>{NO_CHARGE_YET}</strong>
        </p>
        <p className={styles.small}>
          お申し込みの前に、
          <Link href="/specified-commercial-transactions">特定商取引法に基づく表記</Link>と
          <Link href="/terms">利用規約</Link>、下の「お申し込み内容の詳細」をご確認ください。
        </p>
        {signUp ?? <CheckoutForm planKey={plan.key} next={next} offer={offer?.code} />}
        <p className={styles.backLink}>
          {back ? (
            <Link href={back.href}>{back.label}</Link>
          ) : (
            <Link href={plansPath(next, offer?.code)}>プランを選び直す</Link>
          )}
        </p>
      </section>
      <section aria-labelledby="terms-detail" className={styles.section}>
        <h2 id="terms-detail" className={styles.sectionTitle}>
          お申し込み内容の詳細
        </h2>
        <table className={styles.termsTable}>
          <caption className="visually-hidden">お申し込み内容</caption>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{row.body}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
