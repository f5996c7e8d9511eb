import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { customerNow } from '../cycle/calendar';
import { startSubscription } from '../cycle/subscriptions';
import { type SandboxObject, findObject, nowSeconds, requireObject } from '../object-store';
import {
  checkSessionDiscount,
  checkoutTermsOf,
  completeCheckoutSession,
  findCheckoutSession,
  lockCheckoutSession,
  rememberCheckoutCustomer,
  successUrlOf,
} from '../resources/checkout-sessions';
import { grossAmountOf } from '../resources/checkout-line-items';
import {
  paymentIntentIdOf,
  paymentIntentStateOf,
  savePaymentIntentState,
} from '../resources/payment-intents';
import { StripeApiError } from '../errors';
import { callRoute } from '../routes';
import {
  type CardFormState,
  type CardInput,
  DECLINED_MESSAGE,
  cardForm,
  errorSummary,
  takeCardForm,
  testCards,
} from './card-form';
import { saveDefaultCard } from './cards';
import {
  addDays,
  formatAmount,
  formatDate,
  priceLabel,
  productNameOf,
  shortPriceLabel,
} from './format';
import { html } from './html';
import { htmlResponse, notFoundPage, page, redirect } from './layout';
import { AUTHENTICATION_FAILED_MESSAGE, closedAnswer, closedPage } from './checkout-outcomes';
import { showPaymentCheckout, submitPaymentCheckout } from './payment-checkout-page';
import { authenticationPagePath, checkoutPagePath } from './paths';
import { readPageForm } from './request';

/**
 * The sandbox's checkout page (Stripe's checkout.stripe.com) of a subscription: the plan, the
 * trial if any, the customer's e-mail and a card form (a one-time payment's page:
 * payment-checkout-page.ts). Submitting it saves the card as the customer's default
 * (making the customer from `customer_email` if the session has none, as Stripe does), starts
 * the subscription, completes the session and redirects to its success_url — all in one
 * transaction that holds the session's row, so a double submit starts one subscription.
 */

const DISCOUNT_REFUSED_MESSAGE =
  'このクーポンはご利用いただけなくなりました（期限切れ・利用上限など）。サイトに戻って、もう一度お申し込みください。';

async function checkoutDocument(db: Db, session: SandboxObject, state: CardFormState) {
  const terms = await checkoutTermsOf(db, session);
  const { price, trialDays } = terms;
  const customer =
    typeof session.customer === 'string'
      ? await findObject(db, 'customer', session.customer)
      : null;
  const email = session.customer_email ?? customer?.email;
  const now = customer ? await customerNow(db, customer) : nowSeconds();
  const { quantity } = terms;
  const dueToday = trialDays ? 0 : grossAmountOf(price, terms.amountDiscount, quantity).total;
  const currency = String(price.currency);
  const cancelUrl = typeof session.cancel_url === 'string' ? session.cancel_url : null;
  return page(
    'お申し込み',
    html`<h1>お申し込み</h1>
      ${errorSummary(state.errors)}
      <section class="panel" aria-labelledby="plan-title">
        <h2 id="plan-title">プラン</h2>
        <dl class="summary">
          <dt>プラン</dt>
          <dd>${await productNameOf(db, price)}</dd>
          <dt>料金</dt>
          <dd>${priceLabel(price)}${quantity > 1 && ` × ${quantity} 席`}</dd>
          ${
            trialDays !== null &&
            html`<dt>無料体験</dt>
              <dd>${trialDays}日間無料、その後 ${shortPriceLabel(price)}（税込）</dd>
              <dt>初回のお支払い日</dt>
              <dd>${formatDate(addDays(now, trialDays))}</dd>`
          }
          ${
            terms.amountDiscount > 0 &&
            html`<dt>割引</dt>
              <dd>−${formatAmount(terms.amountDiscount, currency)}（初回のお支払いから）</dd>`
          }
          ${
            typeof email === 'string' &&
            html`<dt>メールアドレス</dt>
              <dd>${email}</dd>`
          }
        </dl>
        <p>
          本日のお支払い：<span class="total">${formatAmount(dueToday, currency)}</span>（税込）
        </p>
        <p class="note">
          ${
            trialDays
              ? '無料体験が終わると、解約されるまで自動で更新され、登録したカードに請求されます。無料体験中に解約すれば料金はかかりません。'
              : '解約されるまで自動で更新され、登録したカードに請求されます。'
          }
        </p>
      </section>
      ${cardForm({
        action: checkoutPagePath(session.id),
        submitLabel: '申し込む',
        errors: state.errors,
        values: state.values,
      })}
      ${testCards()} ${cancelUrl && html`<p><a href="${cancelUrl}">戻る</a></p>`}`,
  );
}

/** The open session's page; its form's post may end at the success_url (CSP form-action). */
async function openPage(db: Db, session: SandboxObject, state: CardFormState, status = 200) {
  const successUrl = successUrlOf(session);
  return htmlResponse(await checkoutDocument(db, session, state), {
    status,
    formOrigins: successUrl ? [new URL(successUrl).origin] : [],
  });
}

/**
 * The page; `?error=authentication_failed` (where a failed 3-D Secure challenge returns) shows
 * the reason above the card form.
 */
export async function showCheckoutPage(
  db: Db,
  id: string,
  query = new URLSearchParams(),
): Promise<Response> {
  const session = await findCheckoutSession(db, id);
  if (!session) return notFoundPage();
  if (session.status !== 'open') return closedPage(session);
  if (session.mode === 'payment') return showPaymentCheckout(db, session, query);
  if (query.get('error') === 'authentication_failed') {
    return openPage(db, session, {
      errors: { fields: {}, form: AUTHENTICATION_FAILED_MESSAGE },
    });
  }
  return openPage(db, session, {});
}

type Outcome =
  | { kind: 'missing' }
  | { kind: 'discount_refused'; session: SandboxObject }
  | { kind: 'closed'; session: SandboxObject }
  | { kind: 'payment_failed'; session: SandboxObject }
  | { kind: 'requires_action'; paymentIntent: string };

/**
 * Pays for the session with the card, under the session's row lock; then the customer's test
 * clock (if any) and the customer's row, in the API's order. A card error (declined at attach)
 * is thrown and rolls everything back. A first charge that fails leaves an `incomplete`
 * subscription, which is canceled (with the card detached and the customer's previous default
 * card restored) and committed, as the record of the attempt; the session stays open.
 */
async function payWithCard(db: Db, origin: string, id: string, card: CardInput): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const context = { db: tx, origin };
    const session = await lockCheckoutSession(tx, id);
    if (!session) return { kind: 'missing' };
    if (session.status !== 'open') return { kind: 'closed', session };
    const terms = await checkoutTermsOf(tx, session);
    const existingId =
      typeof session.customer === 'string' ? session.customer : terms.createdCustomer;
    let customer = existingId
      ? await requireObject(tx, 'customer', existingId)
      : await callRoute(context, 'POST', ['customers'], { email: String(session.customer_email) });
    const at = await customerNow(tx, customer, true);
    // The code may have been used up or expired since the session was made: never charge more
    // than the page showed. Its rows stay locked until the subscription has redeemed it.
    const redemption = terms.discount
      ? await checkSessionDiscount(tx, terms.discount, terms.price, customer, true).catch(
          (error: unknown) => {
            if (error instanceof StripeApiError) return null;
            throw error;
          },
        )
      : undefined;
    if (redemption === null) return { kind: 'discount_refused', session };
    const previousDefault = (customer.invoice_settings as { default_payment_method: string | null })
      .default_payment_method;
    const paymentMethod = await saveDefaultCard(context, customer.id, card);
    // Read again: the subscription charges the default card just set.
    customer = await requireObject(tx, 'customer', customer.id);
    const subscription = await startSubscription(tx, {
      customer,
      price: terms.price,
      trialDays: terms.trialDays ?? undefined,
      metadata: terms.subscriptionMetadata,
      cancelAtPeriodEnd: false,
      redemption,
      quantity: terms.quantity,
    });
    const invoiceId = String(subscription.latest_invoice);
    const intent = await paymentIntentStateOf(tx, invoiceId);
    if (subscription.status === 'incomplete' && intent?.status === 'requires_action') {
      // EMV 3-D Secure: the incomplete subscription waits while the cardholder authenticates on
      // the issuer's (simulated) challenge page, which completes or fails the checkout.
      await savePaymentIntentState(tx, {
        ...intent,
        checkout_session: session.id,
        previous_default: previousDefault,
        cardholder_name: card.name,
      });
      if (!existingId) await rememberCheckoutCustomer(tx, session.id, customer.id);
      return { kind: 'requires_action', paymentIntent: paymentIntentIdOf(invoiceId) };
    }
    if (subscription.status === 'incomplete') {
      await callRoute(context, 'DELETE', ['subscriptions', subscription.id]);
      await callRoute(context, 'POST', ['payment_methods', paymentMethod.id, 'detach']);
      if (previousDefault) {
        await callRoute(context, 'POST', ['customers', customer.id], {
          invoice_settings: { default_payment_method: previousDefault },
        });
      }
      if (!existingId) await rememberCheckoutCustomer(tx, session.id, customer.id);
      return { kind: 'payment_failed', session };
    }
    const completed = await completeCheckoutSession(tx, session, {
      customer,
      subscription,
      cardholderName: card.name,
      at,
    });
    return { kind: 'closed', session: completed };
  });
}

/** The page again after a post that did not pay, with what to correct. */
async function pageAfterError(db: Db, id: string, state: CardFormState, status: number) {
  const session = await findCheckoutSession(db, id);
  if (!session) return notFoundPage();
  if (session.status !== 'open') return closedAnswer(session);
  return openPage(db, session, state, status);
}

export async function submitCheckoutPage(request: Request, db: Db, id: string): Promise<Response> {
  const read = await readPageForm(request);
  if (!read.ok) return read.response;
  const origin = new URL(request.url).origin;
  const found = await findCheckoutSession(db, id);
  if (found?.mode === 'payment') return submitPaymentCheckout(db, origin, found, read.form);
  const taken = await takeCardForm(read.form, (card) => payWithCard(db, origin, id, card));
  if (!taken.ok) return pageAfterError(db, id, taken.state, taken.status);
  const outcome = taken.result;
  if (outcome.kind === 'missing') return notFoundPage();
  if (outcome.kind === 'closed') return closedAnswer(outcome.session);
  if (outcome.kind === 'discount_refused') {
    const refused = {
      errors: { fields: {}, form: DISCOUNT_REFUSED_MESSAGE },
      values: taken.values,
    };
    return openPage(db, outcome.session, refused, 409);
  }
  if (outcome.kind === 'requires_action') {
    return redirect(authenticationPagePath(outcome.paymentIntent));
  }
  const declined = { errors: { fields: {}, form: DECLINED_MESSAGE }, values: taken.values };
  return openPage(db, outcome.session, declined, 402);
}
