import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { INVOICE_TYPE, customerNow, num } from '../cycle/calendar';
import { payOpenInvoice, subscriptionIdOf } from '../cycle/subscriptions';
import { StripeApiError } from '../errors';
import { type SandboxObject, findObject, requireObject } from '../object-store';
import {
  completeCheckoutSession,
  findCheckoutSession,
  lockCheckoutSession,
  successUrlOf,
} from '../resources/checkout-sessions';
import {
  type PaymentIntentState,
  invoiceIdOfPaymentIntent,
  paymentIntentStateOf,
  savePaymentIntentState,
} from '../resources/payment-intents';
import { PAYMENT_METHOD_TYPE } from '../resources/payment-methods';
import { callRoute } from '../routes';
import { formatAmount } from './format';
import { html } from './html';
import { htmlResponse, messagePage, notFoundPage, page, redirect } from './layout';
import { authenticationPagePath, checkoutPagePath } from './paths';
import { readPageForm } from './request';
import {
  redirectPaymentOf,
  showRedirectPaymentPage,
  submitRedirectPaymentPage,
} from './redirect-payment-page';

/**
 * The simulated card issuer's EMV 3-D Secure challenge, `/billing-sandbox/authenticate/pi_…`:
 * where a payment that needs the cardholder's authentication (`requires_action`) is sent, from
 * the checkout page and as the hosted invoice page of a renewal. Two buttons, a plain form (no
 * script): 認証する pays the invoice with the card (its subscription active, a checkout
 * completed and sent on to its success_url); 認証に失敗する leaves the payment
 * `requires_payment_method` and, for a checkout, cancels the subscription it started and
 * returns to the card form with the reason. A payment made without a checkout (a renewal) has no
 * page to go on to: its outcome leads back to the page the reader came from (RETURN_FIELD).
 * A one-time payment's challenge (Checkout in `payment` mode) is redirect-payment-page.ts's.
 */

type Pending = { invoice: SandboxObject; state: PaymentIntentState };

async function pendingOf(db: Db, paymentIntentId: string): Promise<Pending | null> {
  const invoiceId = invoiceIdOfPaymentIntent(paymentIntentId);
  if (!invoiceId) return null;
  const invoice = await findObject(db, INVOICE_TYPE, invoiceId);
  const state = await paymentIntentStateOf(db, invoiceId);
  if (!invoice || !state) return null;
  return { invoice, state };
}

/**
 * The form field that carries, through the post, where a renewal's reader came from: the page
 * that linked here (the site's notice), as the browser's Referer named it when the page was
 * opened.
 */
const RETURN_FIELD = 'return_to';

/**
 * Where the way back leads after a payment with no checkout: the page the reader came from, if
 * that is a web page and not one of the sandbox's own, else the front page of the site the
 * sandbox is served on (the site's own origin). Only ever a link the reader follows, as the
 * browser's back button would: never a redirect.
 */
function returnAddress(cameFrom: string | null, origin: string): string {
  if (cameFrom && cameFrom.length <= 2000 && URL.canParse(cameFrom)) {
    const url = new URL(cameFrom);
    const web = url.protocol === 'https:' || url.protocol === 'http:';
    if (web && !url.pathname.startsWith('/billing-sandbox/')) return url.href;
  }
  return `${origin}/`;
}

function wayBack(state: PaymentIntentState, returnTo: string) {
  return state.checkout_session
    ? { href: checkoutPagePath(state.checkout_session), label: 'お申し込みのページに戻る' }
    : { href: returnTo, label: 'サイトに戻る' };
}

function finishedPage(state: PaymentIntentState, paid: boolean, returnTo: string): Response {
  const back = wayBack(state, returnTo);
  return paid
    ? messagePage(
        'お支払いは完了しています',
        state.checkout_session
          ? 'このお支払いの本人認証は完了しています。'
          : 'このお支払いの本人認証は完了し、お支払いが済みました。サイトに戻ってご利用を続けられます。',
        back,
      )
    : messagePage(
        '認証の必要はありません',
        'このお支払いは本人認証を待っていません。サイトからもう一度お手続きください。',
        back,
      );
}

export async function showAuthenticationPage(
  db: Db,
  paymentIntentId: string,
  request: Request,
): Promise<Response> {
  const oneTime = await redirectPaymentOf(db, paymentIntentId, 'card');
  if (oneTime) return showRedirectPaymentPage(db, oneTime, 'card');
  const pending = await pendingOf(db, paymentIntentId);
  if (!pending) return notFoundPage();
  const { invoice, state } = pending;
  const returnTo = returnAddress(request.headers.get('referer'), new URL(request.url).origin);
  if (state.status !== 'requires_action' || invoice.status !== 'open') {
    return finishedPage(state, invoice.status === 'paid', returnTo);
  }
  const card = state.payment_method
    ? await findObject(db, PAYMENT_METHOD_TYPE, state.payment_method)
    : null;
  const last4 = (card?.card as { last4?: string } | undefined)?.last4 ?? '----';
  const action = authenticationPagePath(paymentIntentId);
  return htmlResponse(
    page(
      '3Dセキュア認証（テスト）',
      html`<h1>3Dセキュア認証（テスト）</h1>
        <div class="panel">
          <p>
            カード発行会社による本人認証（EMV 3-D
            セキュア）を模したテスト用の画面です。実際の認証は行われません。
          </p>
          <dl class="summary">
            <dt>お支払い金額</dt>
            <dd>${formatAmount(num(invoice, 'amount_due'), String(invoice.currency))}（税込）</dd>
            <dt>カード</dt>
            <dd>末尾 ${last4}</dd>
          </dl>
          <form method="post" action="${action}" class="actions">
            ${
              !state.checkout_session &&
              html`<input type="hidden" name="${RETURN_FIELD}" value="${returnTo}" />`
            }
            <button type="submit" name="result" value="succeeded" class="button">認証する</button>
            <button type="submit" name="result" value="failed" class="button secondary">
              認証に失敗する
            </button>
          </form>
          ${!state.checkout_session && html`<p><a href="${returnTo}">認証せずにサイトに戻る</a></p>`}
        </div>`,
    ),
    { formOrigins: await successOrigins(db, state) },
  );
}

/** The post may end at a checkout's success_url: CSP's form-action must allow its origin. */
async function successOrigins(db: Db, state: PaymentIntentState): Promise<string[]> {
  if (!state.checkout_session) return [];
  const session = await findCheckoutSession(db, state.checkout_session);
  const url = session ? successUrlOf(session) : null;
  return url ? [new URL(url).origin] : [];
}

/** Authenticated: the invoice is paid with the card, and a checkout completes. */
async function approve(db: Db, pending: Pending, returnTo: string): Promise<Response> {
  const { state } = pending;
  const invoiceId = pending.invoice.id;
  const done = await db.transaction(async (tx) => {
    // The API's lock order: the checkout session first, then what paying takes.
    const session = state.checkout_session
      ? await lockCheckoutSession(tx, state.checkout_session)
      : null;
    const invoice = await requireObject(tx, INVOICE_TYPE, invoiceId);
    if (invoice.status !== 'open') return { session, paid: invoice.status === 'paid' };
    const result = await payOpenInvoice(tx, invoiceId, {
      paymentMethod: state.payment_method ?? undefined,
      authenticated: true,
    }).catch((error: unknown) => {
      // Paid meanwhile (a second click on 認証する): nothing more to do.
      if (error instanceof StripeApiError && error.code === 'invoice_already_paid') return null;
      throw error;
    });
    if (!result) return { session, paid: true };
    if (!result.paid || !session || session.status !== 'open') {
      return { session, paid: result.paid };
    }
    const subscriptionId = subscriptionIdOf(result.invoice);
    const subscription = subscriptionId
      ? await requireObject(tx, 'subscription', subscriptionId)
      : null;
    const customer = await requireObject(tx, 'customer', String(result.invoice.customer));
    if (!subscription) return { session, paid: true };
    const completed = await completeCheckoutSession(tx, session, {
      customer,
      subscription,
      cardholderName: state.cardholder_name ?? null,
      at: await customerNow(tx, customer),
    });
    return { session: completed, paid: true };
  });
  if (done.session) {
    const successUrl = successUrlOf(done.session);
    if (done.session.status === 'complete' && successUrl) return redirect(successUrl);
    if (done.session.status === 'open') return redirect(checkoutPagePath(done.session.id));
  }
  return finishedPage(state, done.paid, returnTo);
}

/**
 * Failed: the payment waits for another card (`requires_payment_method`); a checkout's
 * subscription is canceled, its card detached and the previous default restored (as after a
 * declined first charge), and the reader is back on the card form with the reason.
 */
async function fail(db: Db, origin: string, pending: Pending, returnTo: string): Promise<Response> {
  const invoiceId = pending.invoice.id;
  const sessionId = await db.transaction(async (tx) => {
    const state = await paymentIntentStateOf(tx, invoiceId);
    if (!state || state.status !== 'requires_action') return null;
    const session = state.checkout_session
      ? await lockCheckoutSession(tx, state.checkout_session)
      : null;
    await savePaymentIntentState(tx, {
      ...state,
      status: 'requires_payment_method',
      last_error: 'payment_intent_authentication_failure',
    });
    if (!session || session.status !== 'open') return null;
    const context = { db: tx, origin };
    const invoice = await requireObject(tx, INVOICE_TYPE, invoiceId);
    const subscriptionId = subscriptionIdOf(invoice);
    if (subscriptionId) await callRoute(context, 'DELETE', ['subscriptions', subscriptionId]);
    if (state.payment_method) {
      await callRoute(context, 'POST', ['payment_methods', state.payment_method, 'detach']);
    }
    if (state.previous_default) {
      await callRoute(context, 'POST', ['customers', String(invoice.customer)], {
        invoice_settings: { default_payment_method: state.previous_default },
      });
    }
    return session.id;
  });
  if (sessionId) return redirect(`${checkoutPagePath(sessionId)}?error=authentication_failed`);
  return messagePage(
    'カードの本人認証に失敗しました',
    'お支払いは完了していません。サイトに戻り、別のカードでお手続きください。',
    wayBack(pending.state, returnTo),
  );
}

export async function submitAuthenticationPage(
  request: Request,
  db: Db,
  paymentIntentId: string,
): Promise<Response> {
  const oneTime = await redirectPaymentOf(db, paymentIntentId, 'card');
  if (oneTime) return submitRedirectPaymentPage(request, db, oneTime, 'card');
  const read = await readPageForm(request);
  if (!read.ok) return read.response;
  const pending = await pendingOf(db, paymentIntentId);
  if (!pending) return notFoundPage();
  const origin = new URL(request.url).origin;
  const returnTo = returnAddress(read.form.get(RETURN_FIELD), origin);
  if (pending.state.status !== 'requires_action' || pending.invoice.status !== 'open') {
    return finishedPage(pending.state, pending.invoice.status === 'paid', returnTo);
  }
  const result = read.form.get('result');
  if (result === 'succeeded') return approve(db, pending, returnTo);
  if (result === 'failed') return fail(db, origin, pending, returnTo);
  return messagePage(
    '送信を受け付けられませんでした',
    'ページを読み込み直してください。',
    null,
    400,
  );
}
