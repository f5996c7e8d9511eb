import 'server-only';
import type { Db } from '@/server/platform/db/client';
import {
  INVOICE_TYPE,
  LIVE_STATUSES,
  SUBSCRIPTION_TYPE,
  afterIntervals,
  customerNow,
  itemOf,
  recurringOf,
} from '../cycle/calendar';
import { payOpenInvoice } from '../cycle/subscriptions';
import { StripeApiError } from '../errors';
import type { FormObject } from '../form-body';
import {
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  requireObject,
} from '../object-store';
import { findPortalSession } from '../resources/billing-portal-sessions';
import { grossAmountOf } from '../resources/checkout-line-items';
import { PAYMENT_METHOD_TYPE } from '../resources/payment-methods';
import { callRoute } from '../routes';
import {
  type CardFormState,
  type CardInput,
  cardForm,
  errorSummary,
  takeCardForm,
  testCards,
} from './card-form';
import { saveDefaultCard } from './cards';
import {
  cardLabel,
  formatAmount,
  formatDate,
  invoiceStatusLabel,
  planLabel,
  priceLabel,
  productNameOf,
  subscriptionStatusLabel,
} from './format';
import { type Html, html } from './html';
import { htmlResponse, messagePage, notFoundPage, page, redirect } from './layout';
import { portalPagePath } from './paths';
import { readPageForm } from './request';

/**
 * The sandbox's customer portal (Stripe's billing.stripe.com) with its one, fixed
 * configuration: the customer's live subscriptions, with cancel at period end (after a page
 * that says until when the plan can be used), resume, and a change of plan among every active
 * recurring price of an active product, confirmed on a page that states what is charged today,
 * the new plan's period and the next renewal date, then taking effect at once without prorations
 * (`proration_behavior=none`: nothing refunded, nothing charged for the rest of the period;
 * a change between monthly and yearly starts a new period and bills the new price now); the
 * default card, replaced through a card form, after which a `past_due` subscription's open
 * invoice is paid again; and the invoices. Every write goes through the API's own routes or
 * billing functions, so it records the same events as the API. Every action answers 303 back
 * to the portal with a message.
 */

const MESSAGES: Record<string, string> = {
  canceled: '解約を受け付けました。期間の終わりまでご利用いただけます。',
  resumed: '解約を取り消しました。引き続きご利用いただけます。',
  changed: 'プランを変更しました。',
  card_updated: 'カードを変更しました。',
  card_updated_paid: 'カードを変更し、未払いの請求をお支払いしました。',
  card_updated_payment_failed:
    'カードを変更しましたが、未払いの請求のお支払いに失敗しました。別のカードをお試しください。',
  failed: '操作を完了できませんでした。ページを読み込み直して、もう一度お試しください。',
};

type Portal = { session: SandboxObject; customer: SandboxObject };

function returnLink(session: SandboxObject): { href: string; label: string } | null {
  return typeof session.return_url === 'string'
    ? { href: session.return_url, label: 'サイトに戻る' }
    : null;
}

async function openPortal(db: Db, id: string): Promise<Portal | Response> {
  const found = await findPortalSession(db, id);
  if (!found) return notFoundPage();
  if (found.expired) {
    return messagePage(
      'このページは有効期限が切れています',
      'お手数ですが、サイトからもう一度ご契約の管理を開いてください。',
      returnLink(found.session),
      410,
    );
  }
  const customer = await requireObject(db, 'customer', String(found.session.customer));
  return { session: found.session, customer };
}

async function liveSubscriptionsOf(db: Db, customerId: string): Promise<SandboxObject[]> {
  return findAllObjects(db, SUBSCRIPTION_TYPE, [
    { field: 'customer', in: [customerId] },
    { field: 'status', in: LIVE_STATUSES },
  ]);
}

/** One of the customer's live subscriptions, named by a form; null for anything else. */
async function ownSubscription(
  db: Db,
  portal: Portal,
  id: string | null,
): Promise<SandboxObject | null> {
  if (!id) return null;
  const subscription = await findObject(db, SUBSCRIPTION_TYPE, id);
  if (subscription?.customer !== portal.customer.id) return null;
  return LIVE_STATUSES.includes(String(subscription.status)) ? subscription : null;
}

/** The prices a subscription may change to: active, recurring, of an active product. */
async function choosablePrices(db: Db, subscription: SandboxObject): Promise<SandboxObject[]> {
  const current = itemOf(subscription).price as SandboxObject;
  const prices = await findAllObjects(db, 'price', [
    { field: 'type', in: ['recurring'] },
    { field: 'active', in: ['true'] },
    { field: 'currency', in: [String(subscription.currency)] },
  ]);
  const choosable: SandboxObject[] = [];
  for (const price of prices) {
    if (price.id === current.id) continue;
    const product = await findObject(db, 'product', String(price.product));
    if (product?.active === true) choosable.push(price);
  }
  return choosable;
}

async function defaultCardOf(db: Db, customer: SandboxObject): Promise<SandboxObject | null> {
  const settings = customer.invoice_settings as { default_payment_method: string | null };
  const id = settings.default_payment_method;
  return id ? findObject(db, PAYMENT_METHOD_TYPE, id) : null;
}

function periodEndOf(subscription: SandboxObject): number {
  return itemOf(subscription).current_period_end as number;
}

async function subscriptionPanel(db: Db, portalId: string, subscription: SandboxObject) {
  const price = itemOf(subscription).price as SandboxObject;
  const titleId = `subscription-${subscription.id}`;
  const planId = `plan-${subscription.id}`;
  const plans = await choosablePrices(db, subscription);
  const pastDue = subscription.status === 'past_due';
  const ending = subscription.cancel_at_period_end === true;
  const hidden = html`<input type="hidden" name="subscription" value="${subscription.id}" />`;
  return html`<article class="panel" aria-labelledby="${titleId}">
    <h3 id="${titleId}">${await productNameOf(db, price)}</h3>
    <dl class="summary">
      <dt>料金</dt>
      <dd>${priceLabel(price)}</dd>
      <dt>状態</dt>
      <dd>${subscriptionStatusLabel(subscription)}</dd>
      ${
        !ending &&
        html`<dt>次回のお支払い日</dt>
          <dd>${formatDate(periodEndOf(subscription))}</dd>`
      }
    </dl>
    ${
      pastDue &&
      html`<p>
        お支払いに失敗しています。<a href="${portalPagePath(portalId, 'card')}">カードを変更</a
        >すると、未払いの請求をもう一度お支払いします。
      </p>`
    }
    <div class="actions">
      ${
        ending
          ? html`<form method="post" action="${portalPagePath(portalId, 'resume')}">
              ${hidden}<button type="submit" class="button">解約を取り消す</button>
            </form>`
          : html`<a
              class="button secondary"
              href="${portalPagePath(portalId, 'cancel')}?subscription=${encodeURIComponent(subscription.id)}"
              >解約する</a
            >`
      }
    </div>
    ${
      plans.length > 0 &&
      html`<form method="get" action="${portalPagePath(portalId, 'change')}" class="change-plan">
        ${hidden}
        <div class="field">
          <label for="${planId}">変更先のプラン</label>
          <span class="hint" id="${planId}-hint"
            >次の画面で、本日のお支払い額と次回の更新日を確認してから変更します。日割りの返金や差額の請求はありません。月額と年額を切り替えると、その日から新しい期間が始まり、新しいプランの料金がすぐに請求されます。</span
          >
          <select id="${planId}" name="price" aria-describedby="${planId}-hint">
            ${await Promise.all(plans.map(async (plan) => html`<option value="${plan.id}">${await planLabel(db, plan)}</option>`))}
          </select>
        </div>
        <button type="submit" class="button secondary">プランを変更</button>
      </form>`
    }
  </article>`;
}

function invoiceTable(invoices: SandboxObject[]): Html {
  if (invoices.length === 0) return html`<p>請求はまだありません。</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">日付</th>
        <th scope="col">請求書番号</th>
        <th scope="col" class="number">金額（税込）</th>
        <th scope="col">状態</th>
      </tr>
    </thead>
    <tbody>
      ${invoices.map(
        (invoice) =>
          html`<tr>
            <td>${formatDate(invoice.created)}</td>
            <td>${typeof invoice.number === 'string' ? invoice.number : '―'}</td>
            <td class="number">
              ${formatAmount(invoice.total as number, String(invoice.currency))}
            </td>
            <td>${invoiceStatusLabel(invoice)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

async function showHome(db: Db, portal: Portal, messageCode: string | null): Promise<Response> {
  const { session, customer } = portal;
  const subscriptions = await liveSubscriptionsOf(db, customer.id);
  const invoices = (
    await findAllObjects(db, INVOICE_TYPE, [{ field: 'customer', in: [customer.id] }])
  )
    .filter((invoice) => invoice.status !== 'draft')
    .reverse();
  const card = await defaultCardOf(db, customer);
  const message = messageCode ? MESSAGES[messageCode] : undefined;
  const back = returnLink(session);
  return htmlResponse(
    page(
      'ご契約の管理',
      html`<h1>ご契約の管理</h1>
        ${message && html`<p class="status" role="status">${message}</p>`}
        ${typeof customer.email === 'string' && html`<p>ご契約者：${customer.email}</p>`}
        <section aria-labelledby="subscriptions-title">
          <h2 id="subscriptions-title">ご契約中のプラン</h2>
          ${
            subscriptions.length > 0
              ? await Promise.all(
                  subscriptions.map((sub) => subscriptionPanel(db, session.id, sub)),
                )
              : html`<p class="panel">ご契約中のプランはありません。</p>`
          }
        </section>
        <section class="panel" aria-labelledby="card-title">
          <h2 id="card-title">お支払い方法</h2>
          <p>${card ? cardLabel(card) : '登録されているカードはありません。'}</p>
          <p><a href="${portalPagePath(session.id, 'card')}">カードを変更</a></p>
        </section>
        <section class="panel" aria-labelledby="invoices-title">
          <h2 id="invoices-title">請求履歴</h2>
          ${invoiceTable(invoices)}
        </section>
        ${back && html`<p><a href="${back.href}">${back.label}</a></p>`}`,
    ),
  );
}

async function showCancelConfirmation(
  db: Db,
  portal: Portal,
  subscriptionId: string | null,
): Promise<Response> {
  const subscription = await ownSubscription(db, portal, subscriptionId);
  if (!subscription) return notFoundPage();
  const home = portalPagePath(portal.session.id);
  const price = itemOf(subscription).price as SandboxObject;
  const until = formatDate(periodEndOf(subscription));
  return htmlResponse(
    page(
      '解約の確認',
      html`<h1>解約の確認</h1>
        <div class="panel">
          <p>
            <strong>${await productNameOf(db, price)}</strong>（${priceLabel(price)}）を解約します。
          </p>
          <p>
            ${
              subscription.status === 'trialing'
                ? `無料体験が終わる${until}までご利用いただけます。その後の請求はありません。`
                : `${until}までご利用いただけます。その後の請求はありません。`
            }
          </p>
          <div class="actions">
            <form method="post" action="${portalPagePath(portal.session.id, 'cancel')}">
              <input type="hidden" name="subscription" value="${subscription.id}" />
              <button type="submit" class="button danger">解約する</button>
            </form>
            <a href="${home}">戻る</a>
          </div>
        </div>`,
    ),
  );
}

/** What a change of plan does, as the confirmation page states it before it is made. */
type ChangeQuote = {
  /** Charged now (after any credit on the customer's balance). */
  dueNow: number;
  /** The credit on the customer's balance that pays part of it. */
  creditUsed: number;
  /** The new plan's period that starts (or continues) with the change. */
  period: { start: number; end: number };
  /** The next renewal: the date and what it charges. */
  renewal: { at: number; amount: number };
  newCycle: boolean;
};

/**
 * What `changeSubscription` with `proration_behavior=none` will do: the same interval (or a
 * trial) keeps the period and charges nothing now, the new price from the next renewal; a new
 * interval starts a period now and invoices the new price at once, paid first from the
 * customer's credit balance.
 */
async function quoteChange(
  db: Db,
  portal: Portal,
  subscription: SandboxObject,
  newPrice: SandboxObject,
): Promise<ChangeQuote> {
  const item = itemOf(subscription);
  const oldRecurring = recurringOf(item.price as SandboxObject);
  const newRecurring = recurringOf(newPrice);
  const price = grossAmountOf(newPrice).total;
  const sameCycle =
    oldRecurring.interval === newRecurring.interval &&
    oldRecurring.interval_count === newRecurring.interval_count;
  if (sameCycle || subscription.status === 'trialing') {
    const end = periodEndOf(subscription);
    return {
      dueNow: 0,
      creditUsed: 0,
      period: { start: item.current_period_start as number, end },
      renewal: { at: end, amount: price },
      newCycle: false,
    };
  }
  const at = await customerNow(db, portal.customer);
  const end = afterIntervals(at, newRecurring, 1);
  const balance = typeof portal.customer.balance === 'number' ? portal.customer.balance : 0;
  const creditUsed = Math.min(Math.max(-balance, 0), price);
  return {
    dueNow: price - creditUsed,
    creditUsed,
    period: { start: at, end },
    renewal: { at: end, amount: price },
    newCycle: true,
  };
}

/**
 * The confirmation before a change of plan (as Stripe's portal shows the amount due before it
 * is confirmed): the plan now and the plan after, what is charged today, the new plan's period
 * and the next renewal, with the button that makes the change and a way back.
 */
async function showChangeConfirmation(
  db: Db,
  portal: Portal,
  subscriptionId: string | null,
  priceId: string | null,
): Promise<Response> {
  const subscription = await ownSubscription(db, portal, subscriptionId);
  if (!subscription) return notFoundPage();
  const home = portalPagePath(portal.session.id);
  const newPrice = (await choosablePrices(db, subscription)).find((price) => price.id === priceId);
  if (!newPrice) {
    return messagePage(
      'このプランには変更できません',
      'ご契約の管理に戻り、変更先のプランを選び直してください。',
      { href: home, label: 'ご契約の管理に戻る' },
      400,
    );
  }
  const currency = String(newPrice.currency);
  const current = itemOf(subscription).price as SandboxObject;
  const quote = await quoteChange(db, portal, subscription, newPrice);
  const ending = subscription.cancel_at_period_end === true;
  const trial = subscription.status === 'trialing';
  return htmlResponse(
    page(
      'プラン変更の確認',
      html`<h1>プラン変更の確認</h1>
        <div class="panel">
          <dl class="summary">
            <dt>現在のプラン</dt>
            <dd>${await planLabel(db, current)}</dd>
            <dt>変更後のプラン</dt>
            <dd>${await planLabel(db, newPrice)}</dd>
            <dt>本日のお支払い</dt>
            <dd>
              <strong>${formatAmount(quote.dueNow, currency)}</strong>（税込）${
                quote.creditUsed > 0 &&
                `（残高 ${formatAmount(quote.creditUsed, currency)} を充当）`
              }
            </dd>
            <dt>${trial ? '無料体験の期間' : '変更後のプランの期間'}</dt>
            <dd>${formatDate(quote.period.start)}〜${formatDate(quote.period.end)}</dd>
            <dt>${ending ? 'ご利用の終了日' : trial ? '初回のお支払い日' : '次回の更新日'}</dt>
            <dd>
              ${
                ending
                  ? `${formatDate(quote.renewal.at)}（解約予定のため、その後の請求はありません）`
                  : `${formatDate(quote.renewal.at)}（${formatAmount(quote.renewal.amount, currency)}（税込）を請求）`
              }
            </dd>
          </dl>
          <p>
            ${
              quote.newCycle
                ? '確定すると、本日から新しいプランの期間が始まり、上記の金額を登録済みのカードに請求します。現在のプランの残り期間についての返金はありません。'
                : '確定すると、すぐに新しいプランに切り替わります。本日の請求はなく、日割りの返金や差額の請求もありません。'
            }
          </p>
          <div class="actions">
            <form method="post" action="${portalPagePath(portal.session.id, 'change')}">
              <input type="hidden" name="subscription" value="${subscription.id}" />
              <input type="hidden" name="price" value="${newPrice.id}" />
              <button type="submit" class="button">変更を確定する</button>
            </form>
            <a href="${home}">戻る</a>
          </div>
        </div>`,
    ),
  );
}

async function cardDocument(db: Db, portal: Portal, state: CardFormState): Promise<Html> {
  const card = await defaultCardOf(db, portal.customer);
  const pastDue = (await liveSubscriptionsOf(db, portal.customer.id)).some(
    (subscription) => subscription.status === 'past_due',
  );
  return page(
    'カードを変更',
    html`<h1>カードを変更</h1>
      ${errorSummary(state.errors)}
      <div class="panel">
        <p>現在のカード：${card ? cardLabel(card) : 'なし'}</p>
        ${pastDue && html`<p>変更後、お支払いに失敗している請求をこのカードでお支払いします。</p>`}
      </div>
      ${cardForm({
        action: portalPagePath(portal.session.id, 'card'),
        submitLabel: 'カードを変更',
        errors: state.errors,
        values: state.values,
      })}
      ${testCards()}
      <p><a href="${portalPagePath(portal.session.id)}">戻る</a></p>`,
  );
}

/**
 * Saves the card as the default and pays the open invoice of each `past_due` subscription
 * with it, in one transaction taking the API's locks in its order: the test clock's row, the
 * subscriptions', then the customer's. A card error rolls it all back; a failed payment is
 * kept (it is an attempt, with its events), and said.
 */
async function replaceCard(db: Db, origin: string, portal: Portal, card: CardInput) {
  return db.transaction(async (tx) => {
    const customer = await requireObject(tx, 'customer', portal.customer.id);
    const at = await customerNow(tx, customer, true);
    const pastDue: SandboxObject[] = [];
    for (const found of await liveSubscriptionsOf(tx, customer.id)) {
      const locked = await findObjectForUpdate(tx, SUBSCRIPTION_TYPE, found.id);
      if (locked?.status === 'past_due') pastDue.push(locked);
    }
    const paymentMethod = await saveDefaultCard({ db: tx, origin }, customer.id, card);
    let paid = 0;
    let failed = 0;
    for (const subscription of pastDue) {
      const invoice = await findObject(tx, INVOICE_TYPE, String(subscription.latest_invoice));
      if (invoice?.status !== 'open') continue;
      const result = await payOpenInvoice(tx, invoice.id, { paymentMethod: paymentMethod.id, at });
      if (result.paid) paid++;
      else failed++;
    }
    if (failed > 0) return 'card_updated_payment_failed';
    return paid > 0 ? 'card_updated_paid' : 'card_updated';
  });
}

async function submitCard(
  db: Db,
  origin: string,
  portal: Portal,
  form: URLSearchParams,
): Promise<Response> {
  const taken = await takeCardForm(form, (card) => replaceCard(db, origin, portal, card));
  if (!taken.ok) {
    const document = await cardDocument(db, portal, taken.state);
    return htmlResponse(document, { status: taken.status });
  }
  return backHome(origin, portal, taken.result);
}

function backHome(origin: string, portal: Portal, message: string): Response {
  return redirect(`${origin}${portalPagePath(portal.session.id)}?message=${message}`);
}

/**
 * cancel / resume / change: one call of the API's subscription update. A refusal (a plan that
 * cannot change now) comes back as the `failed` message, not as an error page.
 */
async function submitSubscriptionAction(
  db: Db,
  origin: string,
  portal: Portal,
  action: 'cancel' | 'resume' | 'change',
  form: URLSearchParams,
): Promise<Response> {
  const subscription = await ownSubscription(db, portal, form.get('subscription'));
  if (!subscription) return notFoundPage();
  let update: FormObject;
  let message: string;
  if (action === 'change') {
    const priceId = form.get('price');
    const plans = await choosablePrices(db, subscription);
    if (!plans.some((price) => price.id === priceId)) return backHome(origin, portal, 'failed');
    update = {
      items: { '0': { id: itemOf(subscription).id, price: String(priceId) } },
      proration_behavior: 'none',
    };
    message = 'changed';
  } else {
    update = { cancel_at_period_end: String(action === 'cancel') };
    message = action === 'cancel' ? 'canceled' : 'resumed';
  }
  try {
    await callRoute({ db, origin }, 'POST', ['subscriptions', subscription.id], update);
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    return backHome(origin, portal, 'failed');
  }
  return backHome(origin, portal, message);
}

const PAGES = {
  GET: ['', 'cancel', 'change', 'card'],
  POST: ['cancel', 'resume', 'change', 'card'],
};

/** /billing-sandbox/portal/:id[/cancel|resume|change|card], GET or POST (pages.ts checks). */
export async function handlePortalPage(
  request: Request,
  db: Db,
  segments: string[],
): Promise<Response> {
  const [id, action = '', ...rest] = segments;
  const method = request.method === 'POST' ? 'POST' : 'GET';
  if (!id || rest.length > 0 || !PAGES[method].includes(action)) return notFoundPage();
  const url = new URL(request.url);
  const portal = await openPortal(db, id);
  if (portal instanceof Response) return portal;
  if (method === 'GET') {
    if (action === 'cancel') {
      return showCancelConfirmation(db, portal, url.searchParams.get('subscription'));
    }
    if (action === 'change') {
      const query = url.searchParams;
      return showChangeConfirmation(db, portal, query.get('subscription'), query.get('price'));
    }
    if (action === 'card') return htmlResponse(await cardDocument(db, portal, {}));
    return showHome(db, portal, url.searchParams.get('message'));
  }
  const read = await readPageForm(request);
  if (!read.ok) return read.response;
  if (action === 'card') return submitCard(db, url.origin, portal, read.form);
  return submitSubscriptionAction(
    db,
    url.origin,
    portal,
    action as 'cancel' | 'resume' | 'change',
    read.form,
  );
}
