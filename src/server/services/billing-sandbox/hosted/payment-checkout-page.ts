import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { customerNow } from '../cycle/calendar';
import { issueKonbiniVoucher } from '../cycle/konbini';
import {
  type PaymentState,
  awaitAction,
  chargeCard,
  paymentIntentForAttempt,
} from '../cycle/one-time-payments';
import { type SandboxObject, findObject, nowSeconds, requireObject } from '../object-store';
import { ONE_TIME_METHODS, type OneTimeMethod } from '../resources/checkout-payment-mode';
import {
  type CheckoutTerms,
  attachPaymentIntent,
  checkoutTermsOf,
  completePaymentCheckoutSession,
  findCheckoutSession,
  lockCheckoutSession,
  rememberCheckoutCustomer,
  successUrlOf,
} from '../resources/checkout-sessions';
import { createOneTimePaymentMethod } from '../resources/payment-methods';
import { callRoute } from '../routes';
import {
  type CardFormState,
  type CardInput,
  type CardValues,
  DECLINED_MESSAGE,
  INSUFFICIENT_FUNDS_MESSAGE,
  cardForm,
  errorSummary,
  takeCardForm,
  testCards,
} from './card-form';
import { CHECKOUT_ERRORS, closedAnswer, completePaidSession } from './checkout-outcomes';
import { formatAmount, productNameOf } from './format';
import { html } from './html';
import { htmlResponse, notFoundPage, page, redirect } from './layout';
import {
  authenticationPagePath,
  checkoutPagePath,
  konbiniVoucherPath,
  payPayPagePath,
} from './paths';

/**
 * The checkout page of a one-time payment (a session in `payment` mode): what is bought, the
 * amount with its tax, and a form per payment method the session takes — the card form, konbini
 * (issues the payment numbers: the session completes unpaid and the voucher page is shown), and
 * PayPay (on to the sandbox's PayPay approval page). Each post runs in one transaction holding
 * the session's row, then its PaymentIntent's (made at the first post, reused by the next after
 * a decline), so a double submit pays once.
 */

const METHOD_MESSAGE = 'このお支払い方法はご利用いただけません。ページを読み込み直してください。';

function methodsOf(session: SandboxObject): OneTimeMethod[] {
  return (session.payment_method_types as string[]).filter((type): type is OneTimeMethod =>
    (ONE_TIME_METHODS as readonly string[]).includes(type),
  );
}

async function paymentDocument(db: Db, session: SandboxObject, state: CardFormState) {
  const terms = await checkoutTermsOf(db, session);
  const customer =
    typeof session.customer === 'string'
      ? await findObject(db, 'customer', session.customer)
      : null;
  const email = session.customer_email ?? customer?.email;
  const currency = String(session.currency);
  const total = formatAmount(session.amount_total as number, currency);
  const tax = (session.total_details as { amount_tax: number }).amount_tax;
  const methods = methodsOf(session);
  const action = checkoutPagePath(session.id);
  const cancelUrl = typeof session.cancel_url === 'string' ? session.cancel_url : null;
  const sections = {
    card: cardForm({
      action,
      submitLabel: `カードで ${total} を支払う`,
      errors: state.errors,
      values: state.values,
    }),
    konbini: html`<form
      class="panel"
      method="post"
      action="${action}"
      aria-labelledby="konbini-title"
    >
      <h2 id="konbini-title">コンビニ払い</h2>
      <p>
        ファミリーマート・ローソン・ミニストップ・セイコーマートのレジで、現金でお支払いいただけます。お支払い番号を発行しますので、発行から${terms.konbiniDays}日後の23:59までにお支払いください。お支払いが確認できるまで、ご購入は完了しません。
      </p>
      <input type="hidden" name="method" value="konbini" />
      <button type="submit" class="button wide">お支払い番号を発行する</button>
    </form>`,
    paypay: html`<form
      class="panel"
      method="post"
      action="${action}"
      aria-labelledby="paypay-title"
    >
      <h2 id="paypay-title">PayPay</h2>
      <p>
        PayPayアプリでお支払いを承認します（テスト環境では、承認・拒否を選べるテスト用の画面が開きます）。
      </p>
      <input type="hidden" name="method" value="paypay" />
      <button type="submit" class="button wide">PayPayで ${total} を支払う</button>
    </form>`,
  };
  return page(
    'お支払い',
    html`<h1>お支払い</h1>
      ${errorSummary(state.errors)}
      <section class="panel" aria-labelledby="purchase-title">
        <h2 id="purchase-title">ご購入内容</h2>
        <dl class="summary">
          <dt>商品</dt>
          <dd>${await productNameOf(db, terms.price)}</dd>
          <dt>金額</dt>
          <dd>${total}（税込）</dd>
          <dt>うち消費税</dt>
          <dd>${formatAmount(tax, currency)}</dd>
          ${
            typeof email === 'string' &&
            html`<dt>メールアドレス</dt>
              <dd>${email}</dd>`
          }
        </dl>
        <p>お支払い金額：<span class="total">${total}</span>（税込）</p>
        <p class="note">一回限りのお支払いです。自動で更新・請求されることはありません。</p>
      </section>
      ${methods.length > 1 && html`<p>お支払い方法を選んでください。</p>`}
      ${methods.map((method) => sections[method])} ${methods.includes('card') && testCards()}
      ${cancelUrl && html`<p><a href="${cancelUrl}">戻る</a></p>`}`,
  );
}

/** The open session's page; a post may end at its success_url (CSP form-action). */
async function openPaymentPage(db: Db, session: SandboxObject, state: CardFormState, status = 200) {
  const successUrl = successUrlOf(session);
  return htmlResponse(await paymentDocument(db, session, state), {
    status,
    formOrigins: successUrl ? [new URL(successUrl).origin] : [],
  });
}

/** The page of an open session; `?error=` (where a failed payment returns) says why. */
export async function showPaymentCheckout(
  db: Db,
  session: SandboxObject,
  query: URLSearchParams,
): Promise<Response> {
  const reason = CHECKOUT_ERRORS[query.get('error') ?? ''];
  return openPaymentPage(db, session, reason ? { errors: { fields: {}, form: reason } } : {});
}

type Outcome =
  | { kind: 'missing' }
  | { kind: 'closed'; session: SandboxObject }
  | { kind: 'declined'; session: SandboxObject; declineCode: string }
  | { kind: 'redirect'; location: string };

type Attempt = {
  db: Db;
  origin: string;
  session: SandboxObject;
  terms: CheckoutTerms;
  payment: { intent: SandboxObject; state: PaymentState };
  customer: SandboxObject | null;
  email: string | null;
  at: number;
};

/**
 * Who pays: the session's customer, else one made from `customer_email` (`customer_creation:
 * always`, kept for the next attempt), else nobody (Stripe's guest, `if_required`).
 */
async function payingCustomer(
  db: Db,
  origin: string,
  session: SandboxObject,
  terms: CheckoutTerms,
): Promise<SandboxObject | null> {
  if (typeof session.customer === 'string') return requireObject(db, 'customer', session.customer);
  if (!terms.createsCustomer) return null;
  if (terms.createdCustomer) return requireObject(db, 'customer', terms.createdCustomer);
  const email = String(session.customer_email);
  const customer = await callRoute({ db, origin }, 'POST', ['customers'], { email });
  await rememberCheckoutCustomer(db, session.id, customer.id);
  return customer;
}

/**
 * An attempt to pay the session with `method`, in one transaction: its row, its customer,
 * its PaymentIntent (made or taken up again), then `pay`.
 */
async function attempt(
  db: Db,
  origin: string,
  id: string,
  method: OneTimeMethod,
  pay: (attempt: Attempt) => Promise<Outcome>,
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const locked = await lockCheckoutSession(tx, id);
    if (!locked) return { kind: 'missing' };
    if (locked.status !== 'open') return { kind: 'closed', session: locked };
    const terms = await checkoutTermsOf(tx, locked);
    const customer = await payingCustomer(tx, origin, locked, terms);
    const at = customer ? await customerNow(tx, customer) : nowSeconds();
    const email =
      typeof customer?.email === 'string'
        ? customer.email
        : typeof locked.customer_email === 'string'
          ? locked.customer_email
          : null;
    const payment = await paymentIntentForAttempt(
      tx,
      {
        session: locked,
        customer,
        email,
        methods: methodsOf(locked),
        konbiniDays: terms.konbiniDays,
        intentData: terms.paymentIntentData,
        at,
      },
      method,
    );
    const session = await attachPaymentIntent(tx, locked, payment.intent.id);
    return pay({ db: tx, origin, session, terms, payment, customer, email, at });
  });
}

/** A card: created through the API (its card errors go back to the form), then charged. */
function payByCard(card: CardInput) {
  return async ({ db, origin, session, payment, email, at }: Attempt): Promise<Outcome> => {
    const method = await callRoute({ db, origin }, 'POST', ['payment_methods'], {
      type: 'card',
      card: {
        number: card.number,
        exp_month: String(card.expMonth),
        exp_year: String(card.expYear),
        cvc: card.cvc,
      },
      billing_details: { name: card.name, ...(email ? { email } : {}) },
    });
    const challenge = authenticationPagePath(payment.intent.id);
    const charged = await chargeCard(db, payment.intent, method, {
      at,
      authenticated: false,
      redirect: {
        url: `${origin}${challenge}`,
        return_url: `${origin}${checkoutPagePath(session.id)}`,
      },
    });
    if (charged.result === 'requires_action') return { kind: 'redirect', location: challenge };
    if (charged.result === 'declined') {
      return { kind: 'declined', session, declineCode: charged.declineCode };
    }
    const completed = await completePaidSession(db, session, charged.intent, payment.state);
    return { kind: 'closed', session: completed };
  };
}

/** Konbini: the voucher is issued and the session completes unpaid (Stripe's async payment). */
async function payByKonbini(a: Attempt): Promise<Outcome> {
  const { db, origin, session, payment, customer, email, at } = a;
  const days = a.terms.konbiniDays;
  const waiting = await issueKonbiniVoucher(db, payment, { days, at, origin, name: null });
  await completePaymentCheckoutSession(db, session, {
    customer,
    paymentIntent: waiting.id,
    paid: false,
    payer: { email, name: null },
    at,
  });
  return { kind: 'redirect', location: konbiniVoucherPath(waiting.id) };
}

/** PayPay: the payment waits for the payer's approval on PayPay's (sandbox) page. */
async function payByPayPay({ db, origin, session, payment, email, at }: Attempt): Promise<Outcome> {
  const method = await createOneTimePaymentMethod(db, 'paypay', { email, name: null }, at);
  const location = payPayPagePath(payment.intent.id);
  const nextAction = {
    type: 'redirect_to_url',
    redirect_to_url: {
      url: `${origin}${location}`,
      return_url: `${origin}${checkoutPagePath(session.id)}`,
    },
  };
  await awaitAction(db, payment.intent, method.id, nextAction, at);
  return { kind: 'redirect', location };
}

function answer(db: Db, outcome: Outcome, values?: CardValues): Promise<Response> | Response {
  if (outcome.kind === 'missing') return notFoundPage();
  if (outcome.kind === 'closed') return closedAnswer(outcome.session);
  if (outcome.kind === 'redirect') return redirect(outcome.location);
  const form =
    outcome.declineCode === 'insufficient_funds' ? INSUFFICIENT_FUNDS_MESSAGE : DECLINED_MESSAGE;
  return openPaymentPage(db, outcome.session, { errors: { fields: {}, form }, values }, 402);
}

/** A post to the page: `method` (card when left out, as the card form posts) and its fields. */
export async function submitPaymentCheckout(
  db: Db,
  origin: string,
  session: SandboxObject,
  form: URLSearchParams,
): Promise<Response> {
  const method = form.get('method') ?? 'card';
  if (!methodsOf(session).some((allowed) => allowed === method)) {
    return openPaymentPage(db, session, { errors: { fields: {}, form: METHOD_MESSAGE } }, 400);
  }
  const { id } = session;
  if (method === 'konbini') return answer(db, await attempt(db, origin, id, method, payByKonbini));
  if (method === 'paypay') return answer(db, await attempt(db, origin, id, method, payByPayPay));
  const taken = await takeCardForm(form, (card) =>
    attempt(db, origin, id, 'card', payByCard(card)),
  );
  if (taken.ok) return answer(db, taken.result, taken.values);
  const current = await findCheckoutSession(db, id);
  if (!current) return notFoundPage();
  if (current.status !== 'open') return closedAnswer(current);
  return openPaymentPage(db, current, taken.state, taken.status);
}
