import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { KONBINI_CHAINS, type KonbiniChain } from '../cycle/konbini';
import { findPaymentIntent, paymentNow, paymentStateOf } from '../cycle/one-time-payments';
import { findCheckoutSession, successUrlOf } from '../resources/checkout-sessions';
import { formatAmount, formatDateTime } from './format';
import { html } from './html';
import { htmlResponse, messagePage, notFoundPage, page } from './layout';

/**
 * A konbini payment's voucher, `/billing-sandbox/konbini/pi_…` (the PaymentIntent's
 * `hosted_voucher_url`, where the checkout page goes once the numbers are issued): the amount,
 * the deadline and the numbers to give at each chain's till, in Japanese, with the way back to
 * the site (the session's success_url). Once paid or past its deadline it says so. No key (the
 * id is the credential, as Stripe's voucher URL); it only shows.
 */

const CHAIN_NAMES: Record<KonbiniChain, string> = {
  familymart: 'ファミリーマート',
  lawson: 'ローソン',
  ministop: 'ミニストップ',
  seicomart: 'セイコーマート',
};

type Store = { confirmation_number?: string; payment_code: string };
type Details = { expires_at: number; stores: Record<KonbiniChain, Store | null> };

export async function showKonbiniVoucherPage(db: Db, id: string): Promise<Response> {
  const intent = await findPaymentIntent(db, id);
  const state = intent ? await paymentStateOf(db, id) : null;
  if (!intent || !state?.voucher_status) return notFoundPage();
  const session = await findCheckoutSession(db, state.checkout_session);
  const successUrl = session ? successUrlOf(session) : null;
  const back = successUrl ? { href: successUrl, label: 'サイトに戻る' } : null;
  const deadline = formatDateTime(state.voucher_expires_at ?? 0);
  if (state.voucher_status === 'paid') {
    return messagePage(
      'お支払いは完了しています',
      'このコンビニ払いのお支払いを確認しました。ご購入ありがとうございました。',
      back,
    );
  }
  const now = await paymentNow(db, state);
  if (state.voucher_status === 'expired' || (state.voucher_expires_at ?? 0) < now) {
    return messagePage(
      'お支払い期限が過ぎました',
      `このお支払い番号の期限（${deadline}）が過ぎたため、お支払いいただけません。ご購入を続ける場合は、サイトからもう一度お手続きください。`,
      back,
    );
  }
  const next = intent.next_action as { konbini_display_details?: Details } | null;
  const details = next?.konbini_display_details;
  if (!details) return notFoundPage();
  const amount = formatAmount(intent.amount as number, String(intent.currency));
  const rows = KONBINI_CHAINS.map((chain) => {
    const store = details.stores[chain];
    return (
      store &&
      html`<tr>
        <th scope="row">${CHAIN_NAMES[chain]}</th>
        <td class="card-number">${store.payment_code}</td>
        <td class="card-number">${store.confirmation_number ?? '-'}</td>
      </tr>`
    );
  });
  return htmlResponse(
    page(
      'コンビニでのお支払い',
      html`<h1>コンビニでのお支払い</h1>
        <div class="panel">
          <dl class="summary">
            <dt>お支払い金額</dt>
            <dd><span class="total">${amount}</span>（税込）</dd>
            <dt>お支払い期限</dt>
            <dd>${deadline}</dd>
          </dl>
          <p>
            期限までに、次のいずれかのコンビニのレジで、お支払い番号をお伝えのうえ現金でお支払いください。お支払いが確認できると、ご購入が完了します。期限を過ぎるとお支払いいただけません。
          </p>
        </div>
        <section class="panel" aria-labelledby="numbers-title">
          <h2 id="numbers-title">お支払い番号</h2>
          <table>
            <caption>
              コンビニごとのお支払い番号
            </caption>
            <thead>
              <tr>
                <th scope="col">コンビニ</th>
                <th scope="col">お客様番号</th>
                <th scope="col">確認番号</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>
        </section>
        <section class="panel test-cards" aria-labelledby="test-title">
          <h2 id="test-title">テスト環境でのお支払い</h2>
          <p>
            実際のお店では支払えません。管理コマンド
            <code>npm run admin -- billing-konbini-pay --email メールアドレス</code>
            で、いちばん古い未払いのコンビニ払いを支払い済みにできます。
          </p>
        </section>
        ${back && html`<p><a href="${back.href}">${back.label}</a></p>`}`,
    ),
  );
}
