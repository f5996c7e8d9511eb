import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { type Redemption, checkRedemption, couponAmountOff } from '../cycle/discounts';
import { cancelAbandonedPayment } from '../cycle/one-time-payments';
import { issuePostPaymentInvoice } from '../cycle/post-payment-invoices';
import { invalidParam, invalidRequest, missingParam, resourceMissing } from '../errors';
import { recordEvent } from '../events';
import { checkoutPagePath } from '../hosted/paths';
import {
  type FieldFilter,
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  nowSeconds,
  requireObject,
  saveObject,
} from '../object-store';
import type { Metadata, Params } from '../params';
import {
  type LineItem,
  type LineItemParams,
  grossAmountOf,
  lineItemOf,
  readLineItem,
  sessionPriceOf,
  storeInlinePrice,
} from './checkout-line-items';
import {
  type CustomerCreation,
  type InvoiceCreation,
  KONBINI_DEFAULT_DAYS,
  type PaymentIntentData,
  checkMinimumAmount,
  modeFieldsOf,
  paymentMethodsFor,
  readPaymentModeParams,
  refusePaymentModeParams,
} from './checkout-payment-mode';
import { type SiteRoute, type SiteRouteContext, listRoute } from './route';

/**
 * /v1/checkout/sessions in `subscription` and `payment` mode: create, retrieve, list, expire,
 * line items. The session is paid on the sandbox's own checkout page (hosted/checkout-page.ts),
 * which completes it here. What the session sells (its price, trial and subscription metadata,
 * its PaymentIntent's metadata) is kept beside it (`sandbox.checkout_session_state`, never
 * answered), since Stripe's session object names it only through its line items.
 */

export const CHECKOUT_SESSION_TYPE = 'checkout.session';
const STATE_TYPE = 'sandbox.checkout_session_state';

/** Stripe's bounds for `expires_at`, and its default (24 hours). */
const MIN_LIFETIME = 30 * 60;
const MAX_LIFETIME = 24 * 60 * 60;

/** The sandbox's pages are in Japanese; `en` and `auto` are taken and shown in Japanese too. */
const LOCALES = ['auto', 'ja', 'en'] as const;
const STATUSES = ['open', 'complete', 'expired'] as const;
const MODES = ['payment', 'setup', 'subscription'] as const;

/** Stripe's placeholder in `success_url`, replaced with the session's id at the redirect. */
const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

type SessionState = SandboxObject & {
  price: string;
  trial_period_days: number | null;
  subscription_metadata: Metadata;
  line_item: LineItem;
  /** A customer made from `customer_email` by an attempt whose first payment failed. */
  created_customer: string | null;
  /** `discounts[0]`: what is redeemed when the session completes (checked again then). */
  discount?: DiscountIds | null;
  /** `payment` mode: its PaymentIntent's `payment_intent_data`, konbini's days, customer_creation. */
  payment_intent_data?: PaymentIntentData;
  konbini_expires_after_days?: number;
  customer_creation?: CustomerCreation;
};

type DiscountIds = { coupon?: string; promotionCode?: string };

/** What a session sells, as its page and its completion need it. */
export type CheckoutTerms = {
  price: SandboxObject;
  trialDays: number | null;
  subscriptionMetadata: Metadata;
  createdCustomer: string | null;
  discount: DiscountIds | null;
  /** The first charge's reduction (0 in a trial or without a discount). */
  amountDiscount: number;
  /** The line's quantity: the subscription's seats (1 in `payment` mode). */
  quantity: number;
  /** `payment` mode: what the PaymentIntent is made with. */
  paymentIntentData: PaymentIntentData;
  konbiniDays: number;
  /**
   * Whether a customer is made from `customer_email` when the session is paid: `always`, or
   * a post-payment invoice to issue to it (Stripe's `if_required` then requires one).
   */
  createsCustomer: boolean;
};

/** The checks of `discounts[0]` for a purchase of `price` by `customer` (null: by e-mail). */
export async function checkSessionDiscount(
  db: Db,
  ids: DiscountIds,
  price: SandboxObject,
  customer: SandboxObject | null,
  lock = false,
): Promise<Redemption> {
  // Expiry is real time, not a test clock's: on Stripe a clock moves subscriptions, not codes.
  const at = nowSeconds();
  const param = ids.promotionCode ? 'discounts[0][promotion_code]' : 'discounts[0][coupon]';
  return checkRedemption(db, ids, { customer: customer?.id ?? null, at, price, param }, lock);
}

function readDiscounts(params: Params): { ids: DiscountIds | null; nested: Params[] } {
  const list = params.object('discounts');
  const first = list?.object('0');
  if (!list || !first) return { ids: null, nested: list ? [list] : [] };
  const coupon = first.string('coupon', 200);
  const promotionCode = first.string('promotion_code', 200);
  if (list.has('1')) {
    throw invalidRequest('You may only specify one discount on a Checkout Session.', 'discounts');
  }
  if ((coupon === undefined) === (promotionCode === undefined)) {
    throw invalidRequest(
      'You must specify exactly one of coupon or promotion_code in each discount.',
      'discounts[0]',
    );
  }
  return { ids: { coupon, promotionCode }, nested: [list, first] };
}

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** An absolute http(s) URL, as Stripe requires of success_url, cancel_url and return_url. */
export function readUrl(params: Params, key: string): string | undefined {
  const value = params.string(key, 5000);
  if (value === undefined) return undefined;
  if (!httpUrl(value.replaceAll(SESSION_ID_PLACEHOLDER, 'placeholder'))) {
    throw invalidRequest('Not a valid URL', key, 'url_invalid');
  }
  return value;
}

/** Where a completed session sends the customer: its success_url with the id filled in. */
export function successUrlOf(session: SandboxObject): string | null {
  const url = session.success_url;
  return typeof url === 'string' ? url.replaceAll(SESSION_ID_PLACEHOLDER, session.id) : null;
}

/** The customer parameters: one of `customer` and `customer_email`, as the sandbox needs. */
function checkCustomerParams(customerId: string | undefined, customerEmail: string | undefined) {
  if (customerId !== undefined && customerEmail !== undefined) {
    throw invalidRequest('You may only specify one of these parameters: customer, customer_email.');
  }
  if (customerEmail !== undefined && !EMAIL.test(customerEmail)) {
    throw invalidRequest(
      `Invalid email address: ${customerEmail}`,
      'customer_email',
      'email_invalid',
    );
  }
  if (customerId === undefined && customerEmail === undefined) {
    throw invalidRequest(
      'The billing sandbox needs customer or customer_email: its checkout page does not ask for an e-mail address.',
      'customer_email',
    );
  }
}

/** `expires_at` within Stripe's bounds (30 minutes to 24 hours), 24 hours when left out. */
function expiryOf(expiresAtParam: number | undefined, created: number): number {
  const expiresAt = expiresAtParam ?? created + MAX_LIFETIME;
  if (expiresAt < created + MIN_LIFETIME) {
    throw invalidRequest(
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
      'expires_at',
    );
  }
  if (expiresAt > created + MAX_LIFETIME) {
    throw invalidRequest(
      'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
      'expires_at',
    );
  }
  return expiresAt;
}

/** The subscription item's bounds (as `items[0][quantity]` on create). */
const MAX_QUANTITY = 100_000;

/** The line item's shape: one item; quantity 1 in `payment` mode, seats in `subscription` mode. */
function checkLineItem(item: LineItemParams, mode: 'payment' | 'subscription'): void {
  if (!item.present) throw missingParam('line_items');
  if (item.price !== undefined && item.priceData !== undefined) {
    throw invalidRequest(
      'You may only specify one of these parameters: price, price_data.',
      'line_items[0]',
    );
  }
  if (item.price === undefined && item.priceData === undefined) {
    throw missingParam('line_items[0][price]');
  }
  if (item.quantity === undefined) throw missingParam('line_items[0][quantity]');
  if (item.quantity < 1) {
    throw invalidRequest(
      'This value must be greater than or equal to 1.',
      'line_items[0][quantity]',
    );
  }
  if (mode === 'subscription' && item.quantity > MAX_QUANTITY) {
    throw invalidRequest(
      `This value must be less than or equal to ${MAX_QUANTITY}.`,
      'line_items[0][quantity]',
    );
  }
  if (mode === 'payment' && item.quantity !== 1) {
    throw invalidRequest(
      'The billing sandbox sells one item per Checkout Session in payment mode: quantity must be 1.',
      'line_items[0][quantity]',
    );
  }
}

async function create(context: SiteRouteContext): Promise<SandboxObject> {
  const { params, db } = context;
  const mode = params.oneOf('mode', MODES);
  const item = readLineItem(params);
  const subscriptionData = params.object('subscription_data');
  const trialDays = subscriptionData?.integer('trial_period_days', 1, 730);
  const subscriptionMetadata = subscriptionData?.metadata() ?? {};
  const paymentMode = readPaymentModeParams(params);
  const metadata = params.metadata() ?? {};
  const customerId = params.string('customer', 200);
  const customerEmail = params.string('customer_email', 512);
  const locale = params.oneOf('locale', LOCALES);
  const clientReferenceId = params.string('client_reference_id', 200);
  const successUrl = readUrl(params, 'success_url');
  const cancelUrl = readUrl(params, 'cancel_url');
  const expiresAtParam = params.integer('expires_at', 0, 99_999_999_999);
  const discounts = readDiscounts(params);
  params.oneOf('ui_mode', ['hosted_page'] as const);
  if (item.more) {
    throw invalidRequest(
      'The billing sandbox takes one line item per Checkout Session.',
      'line_items[1]',
    );
  }
  params.finish(...item.nested, subscriptionData, ...paymentMode.nested, ...discounts.nested);

  if (!mode) throw missingParam('mode');
  if (mode === 'setup') {
    throw invalidParam(
      'mode',
      'The billing sandbox makes Checkout Sessions in payment and subscription mode only.',
    );
  }
  if (mode === 'payment') {
    if (subscriptionData) {
      throw invalidRequest(
        'You can not pass `subscription_data` in `payment` mode.',
        'subscription_data',
      );
    }
    if (discounts.ids) {
      throw invalidRequest(
        'The billing sandbox takes discounts in `subscription` mode only.',
        'discounts',
      );
    }
  } else {
    refusePaymentModeParams(paymentMode);
  }
  checkLineItem(item, mode);
  const quantity = item.quantity ?? 1;
  checkCustomerParams(customerId, customerEmail);
  const created = nowSeconds();
  const expiresAt = expiryOf(expiresAtParam, created);
  const { price, inline, productName } = await sessionPriceOf(db, mode, item, created);
  const customer = customerId
    ? await requireObject(db, 'customer', customerId, { param: 'customer' })
    : null;
  if (customer && typeof customer.currency === 'string' && customer.currency !== price.currency) {
    throw invalidRequest(
      `You cannot combine currencies on a single customer. This customer has had a subscription or payment in ${customer.currency}, but you are trying to pay in ${String(price.currency)}.`,
      'line_items[0][price]',
    );
  }
  const redemption = discounts.ids
    ? await checkSessionDiscount(db, discounts.ids, price, customer)
    : null;
  // Nothing is due today in a trial: the first charge comes at its end.
  const amountDiscount =
    redemption && !trialDays
      ? couponAmountOff(
          redemption.coupon,
          (price.unit_amount as number) * quantity,
          String(price.product),
        )
      : 0;
  const product = productName ? null : await findObject(db, 'product', String(price.product));
  const name = productName ?? (typeof product?.name === 'string' ? product.name : '');
  const lineItem = lineItemOf(price, name, amountDiscount, quantity);
  const due = trialDays ? { total: 0, tax: 0 } : grossAmountOf(price, amountDiscount, quantity);
  const currency = String(price.currency);
  if (mode === 'payment') checkMinimumAmount(due.total, currency);
  const methods = paymentMethodsFor(paymentMode, { mode, currency, total: due.total });
  const id = newObjectId('cs_test');
  const session: SandboxObject = {
    id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: trialDays ? 0 : (price.unit_amount as number) * quantity,
    amount_total: due.total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: cancelUrl ?? null,
    client_reference_id: clientReferenceId ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: price.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: customer?.id ?? null,
    customer_account: null,
    customer_details: null,
    customer_email: customerEmail ?? null,
    discounts: redemption
      ? [
          {
            coupon: redemption.promotionCode ? null : redemption.coupon.id,
            promotion_code: redemption.promotionCode?.id ?? null,
          },
        ]
      : [],
    expires_at: expiresAt,
    integration_identifier: null,
    invoice: null,
    livemode: false,
    locale: locale ?? null,
    managed_payments: null,
    metadata,
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_configuration_details: null,
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: {
      allow_redisplay_filters: ['always'],
      payment_method_remove: null,
      payment_method_save: null,
    },
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: successUrl ?? null,
    total_details: { amount_discount: amountDiscount, amount_shipping: 0, amount_tax: due.tax },
    ui_mode: 'hosted_page',
    url: `${context.origin}${checkoutPagePath(id)}`,
    wallet_options: null,
    ...modeFieldsOf(mode, methods, paymentMode, customer !== null),
  };
  const state: SessionState = {
    id: stateId(id),
    object: STATE_TYPE,
    created,
    price: price.id,
    trial_period_days: trialDays ?? null,
    subscription_metadata: subscriptionMetadata,
    line_item: lineItem,
    created_customer: null,
    discount: discounts.ids,
    ...(mode === 'payment'
      ? {
          payment_intent_data: paymentMode.paymentIntentData ?? { metadata: {}, description: null },
          konbini_expires_after_days: paymentMode.konbiniDays ?? KONBINI_DEFAULT_DAYS,
          customer_creation: paymentMode.customerCreation ?? 'if_required',
        }
      : {}),
  };
  await db.transaction(async (tx) => {
    if (inline) await storeInlinePrice(tx, inline);
    await insertObject(tx, CHECKOUT_SESSION_TYPE, session);
    await insertObject(tx, STATE_TYPE, state);
  });
  return session;
}

function customerDetails(email: unknown, name: string | null = null) {
  return {
    address: null,
    business_name: null,
    email: typeof email === 'string' ? email : null,
    individual_name: null,
    name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
}

function stateId(sessionId: string): string {
  return `checkoutstate_${sessionId}`;
}

async function requireState(db: Db, sessionId: string): Promise<SessionState> {
  const state = await findObject(db, STATE_TYPE, stateId(sessionId));
  if (!state) throw new Error(`billing sandbox: no state for ${sessionId}`);
  return state as SessionState;
}

export async function checkoutTermsOf(db: Db, session: SandboxObject): Promise<CheckoutTerms> {
  const state = await requireState(db, session.id);
  const price = await findObject(db, 'price', state.price);
  if (!price) throw new Error(`billing sandbox: no price ${state.price} for ${session.id}`);
  return {
    price,
    trialDays: state.trial_period_days,
    subscriptionMetadata: state.subscription_metadata,
    createdCustomer: state.created_customer,
    discount: state.discount ?? null,
    amountDiscount: state.line_item.amount_discount as number,
    quantity: typeof state.line_item.quantity === 'number' ? state.line_item.quantity : 1,
    paymentIntentData: state.payment_intent_data ?? { metadata: {}, description: null },
    konbiniDays: state.konbini_expires_after_days ?? KONBINI_DEFAULT_DAYS,
    createsCustomer:
      state.customer_creation !== 'if_required' || invoiceCreationOf(session)?.enabled === true,
  };
}

function invoiceCreationOf(session: SandboxObject): InvoiceCreation | null {
  return session.invoice_creation as InvoiceCreation | null;
}

/** The post-payment invoice a paid session with `invoice_creation` enabled leaves, or null. */
async function invoiceOfPayment(
  db: Db,
  session: SandboxObject,
  customerId: unknown,
  at: number,
): Promise<string | null> {
  const creation = invoiceCreationOf(session);
  if (!creation?.enabled) return null;
  if (typeof customerId !== 'string')
    throw new Error(`billing sandbox: ${session.id} has no customer`);
  const { price } = await checkoutTermsOf(db, session);
  const invoiceData = creation.invoice_data;
  return (await issuePostPaymentInvoice(db, { customerId, price, invoiceData, at })).id;
}

/** Keeps the customer an unpaid attempt made, so that the next attempt pays as the same one. */
export async function rememberCheckoutCustomer(
  db: Db,
  sessionId: string,
  customerId: string,
): Promise<void> {
  const state = await requireState(db, sessionId);
  await saveObject(db, { ...state, created_customer: customerId });
}

/** Expires an open session whose time is up (nothing runs on a timer: done when it is read). */
async function expireIfDue(db: Db, session: SandboxObject): Promise<SandboxObject> {
  if (session.status !== 'open' || (session.expires_at as number) > nowSeconds()) return session;
  return expire(db, session);
}

async function expire(db: Db, session: SandboxObject): Promise<SandboxObject> {
  const expired: SandboxObject = { ...session, status: 'expired', url: null };
  const at = nowSeconds();
  await saveObject(db, expired);
  await recordEvent(db, 'checkout.session.expired', expired, at);
  if (typeof session.payment_intent === 'string') {
    await cancelAbandonedPayment(db, session.payment_intent, at);
  }
  return expired;
}

/**
 * The session under its row lock until `db`'s transaction ends (expired first if its time is
 * up): what completes or expires a session holds it, so a double submit pays once.
 */
export async function lockCheckoutSession(db: Db, id: string): Promise<SandboxObject | null> {
  const session = await findObjectForUpdate(db, CHECKOUT_SESSION_TYPE, id);
  return session && expireIfDue(db, session);
}

/** The session as it is now (expired if its time is up), or null. */
export async function findCheckoutSession(db: Db, id: string): Promise<SandboxObject | null> {
  const found = await findObject(db, CHECKOUT_SESSION_TYPE, id);
  if (found?.status !== 'open' || (found.expires_at as number) > nowSeconds()) return found;
  return db.transaction((tx) => lockCheckoutSession(tx, id));
}

/** Completes a locked open session with the subscription its page started. */
export async function completeCheckoutSession(
  db: Db,
  session: SandboxObject,
  outcome: {
    customer: SandboxObject;
    subscription: SandboxObject;
    cardholderName: string | null;
    at: number;
  },
): Promise<SandboxObject> {
  const { customer, subscription } = outcome;
  const completed: SandboxObject = {
    ...session,
    status: 'complete',
    payment_status: subscription.status === 'trialing' ? 'no_payment_required' : 'paid',
    customer: customer.id,
    customer_details: customerDetails(customer.email, outcome.cardholderName),
    subscription: subscription.id,
    invoice: subscription.latest_invoice ?? null,
    url: null,
  };
  await saveObject(db, completed);
  await recordEvent(db, 'checkout.session.completed', completed, outcome.at);
  return completed;
}

/** Names the PaymentIntent an attempt to pay a locked open session made (no event: Stripe's none). */
export async function attachPaymentIntent(
  db: Db,
  session: SandboxObject,
  paymentIntentId: string,
): Promise<SandboxObject> {
  if (session.payment_intent === paymentIntentId) return session;
  const attached: SandboxObject = { ...session, payment_intent: paymentIntentId };
  await saveObject(db, attached);
  return attached;
}

/**
 * Completes a locked open `payment`-mode session: `paid` (with its post-payment invoice, if
 * asked for), or `unpaid` while a konbini payment waits (its outcome comes later as
 * `checkout.session.async_payment_succeeded|failed`).
 */
export async function completePaymentCheckoutSession(
  db: Db,
  session: SandboxObject,
  outcome: {
    customer: SandboxObject | null;
    paymentIntent: string;
    paid: boolean;
    payer: { email: string | null; name: string | null };
    at: number;
  },
): Promise<SandboxObject> {
  const customer = outcome.customer?.id ?? null;
  const completed: SandboxObject = {
    ...session,
    status: 'complete',
    payment_status: outcome.paid ? 'paid' : 'unpaid',
    customer,
    invoice: outcome.paid ? await invoiceOfPayment(db, session, customer, outcome.at) : null,
    customer_details: customerDetails(outcome.payer.email, outcome.payer.name),
    payment_intent: outcome.paymentIntent,
    url: null,
  };
  await saveObject(db, completed);
  await recordEvent(db, 'checkout.session.completed', completed, outcome.at);
  return completed;
}

/**
 * A delayed payment's outcome on its completed session (held by the caller): paid
 * (`payment_status: paid`, its post-payment invoice if asked for,
 * `checkout.session.async_payment_succeeded`) or not (`checkout.session.async_payment_failed`,
 * still `unpaid`, no invoice).
 */
export async function settleAsyncCheckout(
  db: Db,
  session: SandboxObject,
  paid: boolean,
  at: number,
): Promise<SandboxObject> {
  if (!paid) {
    await recordEvent(db, 'checkout.session.async_payment_failed', session, at);
    return session;
  }
  const invoice = await invoiceOfPayment(db, session, session.customer, at);
  const settled: SandboxObject = { ...session, payment_status: 'paid', invoice };
  await saveObject(db, settled);
  await recordEvent(db, 'checkout.session.async_payment_succeeded', settled, at);
  return settled;
}

async function retrieve(context: SiteRouteContext): Promise<SandboxObject> {
  context.params.finish();
  const id = context.id ?? '';
  const session = await findCheckoutSession(context.db, id);
  if (!session) throw resourceMissing('checkout.session', id);
  return session;
}

async function expireRoute(context: SiteRouteContext): Promise<SandboxObject> {
  context.params.finish();
  const id = context.id ?? '';
  return context.db.transaction(async (db) => {
    const session = await lockCheckoutSession(db, id);
    if (!session) throw resourceMissing('checkout.session', id);
    if (session.status !== 'open') {
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${String(session.status)}\`.`,
      );
    }
    return expire(db, session);
  });
}

/** Expires every open session whose time is up, so that a list by status is right. */
async function expireDueSessions(db: Db): Promise<void> {
  const due = await findAllObjects(db, CHECKOUT_SESSION_TYPE, [
    { field: 'status', in: ['open'] },
    { field: 'expires_at', lte: nowSeconds() },
  ]);
  for (const session of due) await db.transaction((tx) => lockCheckoutSession(tx, session.id));
}

/** The list's filters, read once every session due to expire has expired. */
async function listFilters({ params, db }: SiteRouteContext) {
  const filters: FieldFilter[] = [];
  const customer = params.string('customer', 200);
  if (customer) filters.push({ field: 'customer', in: [customer] });
  const subscription = params.string('subscription', 200);
  if (subscription) filters.push({ field: 'subscription', in: [subscription] });
  const paymentIntent = params.string('payment_intent', 200);
  if (paymentIntent) filters.push({ field: 'payment_intent', in: [paymentIntent] });
  const status = params.oneOf('status', STATUSES);
  if (status) filters.push({ field: 'status', in: [status] });
  await expireDueSessions(db);
  return filters;
}

async function lineItems(context: SiteRouteContext) {
  const { params, db } = context;
  params.integer('limit', 1, 100);
  params.string('starting_after');
  params.string('ending_before');
  params.finish();
  const id = context.id ?? '';
  if (!(await findObject(db, CHECKOUT_SESSION_TYPE, id))) {
    throw resourceMissing('checkout.session', id);
  }
  const state = await requireState(db, id);
  // A list of SandboxObjects by its type; the item has no `created`, which nothing here reads.
  const data = [state.line_item as SandboxObject];
  return { object: 'list' as const, data, has_more: false, url: context.path };
}

export const checkoutSessionRoutes: SiteRoute[] = [
  { method: 'POST', pattern: ['checkout', 'sessions'], handle: create },
  listRoute(['checkout', 'sessions'], CHECKOUT_SESSION_TYPE, { filters: listFilters }),
  { method: 'GET', pattern: ['checkout', 'sessions', ':id'], handle: retrieve },
  { method: 'POST', pattern: ['checkout', 'sessions', ':id', 'expire'], handle: expireRoute },
  { method: 'GET', pattern: ['checkout', 'sessions', ':id', 'line_items'], handle: lineItems },
];
