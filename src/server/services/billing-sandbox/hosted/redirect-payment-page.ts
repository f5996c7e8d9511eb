import 'server-only';
import type { Db } from '@/server/platform/db/client';
import {
  type PaymentState,
  chargeCard,
  failPayment,
  findPaymentIntent,
  lastPaymentError,
  lockPaymentIntent,
  paymentNow,
  paymentStateOf,
  succeedPayment,
} from '../cycle/one-time-payments';
import { type SandboxObject, findObject } from '../object-store';
import {
  findCheckoutSession,
  lockCheckoutSession,
  successUrlOf,
} from '../resources/checkout-sessions';
import { PAYMENT_METHOD_TYPE } from '../resources/payment-methods';
import { closedAnswer, completePaidSession } from './checkout-outcomes';
import { formatAmount } from './format';
import { html } from './html';
import { htmlResponse, messagePage, notFoundPage, page, redirect } from './layout';
import { authenticationPagePath, checkoutPagePath, payPayPagePath } from './paths';
import { readPageForm } from './request';

/**
 * Where a one-time payment's redirect leads (`next_action.redirect_to_url`) and comes back
 * from: the simulated PayPay approval (/billing-sandbox/paypay/pi_…, 承認 / 拒否) and the
 * simulated 3-D Secure challenge of a card (/billing-sandbox/authenticate/pi_…, shared with
 * invoices' payments: authentication-page.ts hands one-time payments here). No key (the id is
 * the credential); one plain form, no script. Approved: paid, the session completes and the
 * browser goes to its success_url. Declined: the PaymentIntent waits for another method
 * (`payment_intent.payment_failed`, `payment_intent_authentication_failure`) and the browser
 * goes back to the checkout page with the reason; the session stays open, as on Stripe.
 */

export type RedirectKind = 'card' | 'paypay';

const KINDS = {
  card: {
    title: '3Dセキュア認証（テスト）',
    intro:
      'カード発行会社による本人認証（EMV 3-D セキュア）を模したテスト用の画面です。実際の認証は行われません。',
    approve: { value: 'succeeded', label: '認証する' },
    decline: { value: 'failed', label: '認証に失敗する' },
    error: 'authentication_failed',
    path: authenticationPagePath,
  },
  paypay: {
    title: 'PayPay（テスト）',
    intro:
      'PayPayアプリでのお支払いの承認を模したテスト用の画面です。実際のお支払いは行われません。',
    approve: { value: 'approve', label: '承認' },
    decline: { value: 'decline', label: '拒否' },
    error: 'paypay_declined',
    path: payPayPagePath,
  },
} as const;

type Pending = { intent: SandboxObject; state: PaymentState };

/** The one-time payment of that id whose current attempt is by this method, or null. */
export async function redirectPaymentOf(
  db: Db,
  id: string,
  kind: RedirectKind,
): Promise<Pending | null> {
  const intent = await findPaymentIntent(db, id);
  const state = intent ? await paymentStateOf(db, id) : null;
  return intent && state?.method === kind ? { intent, state } : null;
}

async function methodOf(db: Db, intent: SandboxObject): Promise<SandboxObject | null> {
  const id = intent.payment_method;
  return typeof id === 'string' ? findObject(db, PAYMENT_METHOD_TYPE, id) : null;
}

/** The page of a payment that waits for nothing any more: paid, or back to the checkout. */
async function finishedPage(db: Db, { intent, state }: Pending): Promise<Response> {
  const session = await findCheckoutSession(db, state.checkout_session);
  const successUrl = session ? successUrlOf(session) : null;
  if (intent.status === 'succeeded') {
    return messagePage(
      'お支払いは完了しています',
      'このお支払いは完了しています。サイトに戻ってご利用ください。',
      successUrl ? { href: successUrl, label: 'サイトに戻る' } : null,
    );
  }
  return messagePage(
    '承認を待っているお支払いはありません',
    'このお支払いは承認を待っていません。お支払いのページからもう一度お手続きください。',
    session?.status === 'open'
      ? { href: checkoutPagePath(session.id), label: 'お支払いのページに戻る' }
      : null,
  );
}

export async function showRedirectPaymentPage(
  db: Db,
  pending: Pending,
  kind: RedirectKind,
): Promise<Response> {
  const { intent, state } = pending;
  if (intent.status !== 'requires_action') return finishedPage(db, pending);
  const spec = KINDS[kind];
  const card = kind === 'card' ? (await methodOf(db, intent))?.card : null;
  const last4 = (card as { last4?: string } | null | undefined)?.last4 ?? '----';
  const session = await findCheckoutSession(db, state.checkout_session);
  const successUrl = session ? successUrlOf(session) : null;
  return htmlResponse(
    page(
      spec.title,
      html`<h1>${spec.title}</h1>
        <div class="panel">
          <p>${spec.intro}</p>
          <dl class="summary">
            <dt>お支払い金額</dt>
            <dd>${formatAmount(intent.amount as number, String(intent.currency))}（税込）</dd>
            ${
              kind === 'card' &&
              html`<dt>カード</dt>
                <dd>末尾 ${last4}</dd>`
            }
          </dl>
          <form method="post" action="${spec.path(intent.id)}" class="actions">
            <button type="submit" name="result" value="${spec.approve.value}" class="button">
              ${spec.approve.label}
            </button>
            <button
              type="submit"
              name="result"
              value="${spec.decline.value}"
              class="button secondary"
            >
              ${spec.decline.label}
            </button>
          </form>
          <p>
            <a href="${checkoutPagePath(state.checkout_session)}">お支払いのページに戻る</a>
          </p>
        </div>`,
    ),
    { formOrigins: successUrl ? [new URL(successUrl).origin] : [] },
  );
}

/**
 * Approved: the card charged as authenticated (or PayPay's payment made), the session
 * completed, on to its success_url. Under the session's row, then the PaymentIntent's.
 */
async function approve(db: Db, id: string, kind: RedirectKind): Promise<Response> {
  const done = await db.transaction(async (tx) => {
    const state = await paymentStateOf(tx, id);
    const session = state ? await lockCheckoutSession(tx, state.checkout_session) : null;
    const intent = session ? await lockPaymentIntent(tx, id) : null;
    if (!state || !session || !intent) return null;
    if (intent.status !== 'requires_action' || session.status !== 'open') return { session };
    const method = await methodOf(tx, intent);
    if (!method) throw new Error(`billing sandbox: no payment method for ${id}`);
    const at = await paymentNow(tx, state);
    if (kind === 'card') {
      const charged = await chargeCard(tx, intent, method, {
        at,
        authenticated: true,
        redirect: null,
      });
      if (charged.result !== 'succeeded') return { session, error: 'card_declined' };
      return { session: await completePaidSession(tx, session, charged.intent, state) };
    }
    const paid = await succeedPayment(tx, intent, method, at);
    return { session: await completePaidSession(tx, session, paid, state) };
  });
  if (!done) return notFoundPage();
  if (done.session.status !== 'open') return closedAnswer(done.session);
  const error = 'error' in done ? `?error=${done.error}` : '';
  return redirect(`${checkoutPagePath(done.session.id)}${error}`);
}

/** Declined: the PaymentIntent waits for another method; back to the checkout with the reason. */
async function decline(db: Db, id: string, kind: RedirectKind): Promise<Response> {
  const sessionId = await db.transaction(async (tx) => {
    const state = await paymentStateOf(tx, id);
    const session = state ? await lockCheckoutSession(tx, state.checkout_session) : null;
    const intent = session ? await lockPaymentIntent(tx, id) : null;
    if (!state || !session || !intent || intent.status !== 'requires_action') return null;
    const method = typeof intent.payment_method === 'string' ? { id: intent.payment_method } : null;
    const error = lastPaymentError('payment_intent_authentication_failure', method);
    await failPayment(tx, intent, error, await paymentNow(tx, state));
    return session.status === 'open' ? session.id : null;
  });
  if (sessionId) return redirect(`${checkoutPagePath(sessionId)}?error=${KINDS[kind].error}`);
  const pending = await redirectPaymentOf(db, id, kind);
  return pending ? finishedPage(db, pending) : notFoundPage();
}

export async function submitRedirectPaymentPage(
  request: Request,
  db: Db,
  pending: Pending,
  kind: RedirectKind,
): Promise<Response> {
  const read = await readPageForm(request);
  if (!read.ok) return read.response;
  if (pending.intent.status !== 'requires_action') return finishedPage(db, pending);
  const result = read.form.get('result');
  const { id } = pending.intent;
  if (result === KINDS[kind].approve.value) return approve(db, id, kind);
  if (result === KINDS[kind].decline.value) return decline(db, id, kind);
  return messagePage(
    '送信を受け付けられませんでした',
    'ページを読み込み直してください。',
    null,
    400,
  );
}

/** `/billing-sandbox/paypay/pi_…`: GET shows the approval, POST answers it. */
export async function handlePayPayPage(request: Request, db: Db, id: string): Promise<Response> {
  const pending = await redirectPaymentOf(db, id, 'paypay');
  if (!pending) return notFoundPage();
  return request.method.toUpperCase() === 'GET'
    ? showRedirectPaymentPage(db, pending, 'paypay')
    : submitRedirectPaymentPage(request, db, pending, 'paypay');
}
