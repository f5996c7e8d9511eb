import 'server-only';
import { createHmac } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { cardError, invalidRequest, missingParam, resourceMissing } from '../errors';
import {
  type FieldFilter,
  type SandboxObject,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  nowSeconds,
  saveObject,
  requireObject,
} from '../object-store';
import { sandboxSecretKey } from '../secret-key';
import { type Route, type RouteContext, changeLocked, listRoute, resourceRoutes } from './route';

/**
 * /v1/payment_methods (type `card`): create from raw card details, retrieve, list (by
 * `customer`), attach, detach; and /v1/customers/:id/payment_methods.
 *
 * Stripe refuses raw card numbers from servers (they go through Stripe.js/Elements, or a
 * PCI-certified integration); the sandbox takes them because its own hosted checkout page is
 * its "Elements". Only the brand, last four digits, expiry and a fingerprint are kept, never
 * the number or the CVC. The test cards (Stripe's numbers): 4242 4242 4242 4242 succeeds;
 * 4000 0000 0000 0002 is declined when attached (`card_declined`, `generic_decline`), as on
 * Stripe, and so is 4000 0000 0000 9995 (`card_declined`, `insufficient_funds`);
 * 4000 0000 0000 0341 attaches and every charge on it is declined (`card_declined`,
 * `generic_decline`), as on Stripe: a failed renewal is tried by starting on a good card and
 * then making 0341 the customer's default, or by starting a trial on it. Any other number
 * that passes the Luhn check succeeds.
 */

export const PAYMENT_METHOD_TYPE = 'payment_method';
/**
 * What a card does when charged and how often it was, kept beside the payment method and
 * never answered: the test card's behaviour and a count of its successful charges.
 */
const CARD_STATE_TYPE = 'sandbox.card_state';

type CardBehavior =
  | 'succeeds'
  | 'declined_on_attach'
  | 'insufficient_funds_on_attach'
  | 'charges_fail'
  | 'authentication_always'
  | 'authentication_unless_set_up';

const TEST_CARD_BEHAVIORS: Record<string, CardBehavior> = {
  '4000000000000002': 'declined_on_attach',
  '4000000000009995': 'insufficient_funds_on_attach',
  '4000000000000341': 'charges_fail',
  // EMV 3-D Secure (Stripe's 3DS test cards): 3184 asks for authentication on every charge;
  // 3155 unless it was set up for later charges without the customer (an authenticated
  // checkout does that); 3220 (3DS2 required) is treated as 3155.
  '4000002760003184': 'authentication_always',
  '4000002500003155': 'authentication_unless_set_up',
  '4000000000003220': 'authentication_unless_set_up',
};

/** What a charge did: succeeded, declined, or waits for the cardholder's 3-D Secure authentication. */
export type ChargeResult = 'succeeded' | 'declined' | 'requires_action';

function luhnValid(number: string): boolean {
  let sum = 0;
  for (let index = 0; index < number.length; index++) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^35/.test(number)) return 'jcb';
  if (/^3[068]/.test(number)) return 'diners';
  if (/^(6011|65)/.test(number)) return 'discover';
  return 'unknown';
}

/** Stripe's answer to a declined card (HTTP 402, the SDK's StripeCardError). */
export const cardDeclined = () =>
  cardError('Your card was declined.', 'card_declined', undefined, {
    decline_code: 'generic_decline',
  });

/** Stripe's answer to 4000 0000 0000 9995: declined, `decline_code: insufficient_funds`. */
const insufficientFunds = () =>
  cardError('Your card has insufficient funds.', 'card_declined', undefined, {
    decline_code: 'insufficient_funds',
  });

function chargeResult(state: SandboxObject | null, authenticated: boolean): ChargeResult {
  if (!state) return 'declined';
  switch (state.behavior) {
    case 'declined_on_attach':
    case 'insufficient_funds_on_attach':
    case 'charges_fail':
      return 'declined';
    case 'authentication_always':
      return authenticated ? 'succeeded' : 'requires_action';
    case 'authentication_unless_set_up':
      return authenticated || state.set_up === true ? 'succeeded' : 'requires_action';
    default:
      return 'succeeded';
  }
}

/**
 * Whether a charge on the payment method would succeed now without the cardholder, without
 * making it (false for 4000 0000 0000 0341, a card that asks for authentication, and a payment
 * method the sandbox lacks).
 */
export async function chargeSucceeds(db: Db, paymentMethodId: string): Promise<boolean> {
  const state = await findObject(db, CARD_STATE_TYPE, `cardstate_${paymentMethodId}`);
  return chargeResult(state, false) === 'succeeded';
}

/**
 * Charges the payment method: answers what the charge did and counts it if it succeeded.
 * `authenticated`: the cardholder has just passed the 3-D Secure challenge for this payment.
 * The card's state row is held until the transaction ends, so charges on one card are made
 * one after the other.
 */
export async function chargePaymentMethod(
  db: Db,
  paymentMethodId: string,
  authenticated = false,
): Promise<ChargeResult> {
  const state = await findObjectForUpdate(db, CARD_STATE_TYPE, `cardstate_${paymentMethodId}`);
  const result = chargeResult(state, authenticated);
  if (state && result === 'succeeded') {
    // A card authenticated once is set up for later charges without the customer (3155).
    await saveObject(db, {
      ...state,
      charges: Number(state.charges ?? 0) + 1,
      set_up: state.set_up === true || authenticated,
    });
  }
  return result;
}

/** Stripe's `billing_details` of a payment method: the name and e-mail the payer gave. */
function billingDetails(email: string | null, name: string | null) {
  return {
    address: {
      city: null,
      country: null,
      line1: null,
      line2: null,
      postal_code: null,
      state: null,
    },
    email,
    name,
    phone: null,
    tax_id: null,
  };
}

/** Why a charge on the card is declined (Stripe's `decline_code`). */
export async function declineCodeOf(
  db: Db,
  paymentMethodId: string,
): Promise<'generic_decline' | 'insufficient_funds'> {
  const state = await findObject(db, CARD_STATE_TYPE, `cardstate_${paymentMethodId}`);
  return state?.behavior === 'insufficient_funds_on_attach'
    ? 'insufficient_funds'
    : 'generic_decline';
}

/**
 * A konbini or PayPay payment method, as Stripe makes one when a Checkout Session is paid with
 * it: nothing but its type and the payer's billing details (one-time only, never attached).
 */
export async function createOneTimePaymentMethod(
  db: Db,
  type: 'konbini' | 'paypay',
  billing: { email: string | null; name: string | null },
  created: number,
): Promise<SandboxObject> {
  const paymentMethod: SandboxObject = {
    id: newObjectId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: billingDetails(billing.email, billing.name),
    created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type,
    [type]: {},
  };
  await insertObject(db, PAYMENT_METHOD_TYPE, paymentMethod);
  return paymentMethod;
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { params, db } = context;
  const type = params.requiredString('type', 50);
  const card = params.object('card');
  const number = card?.string('number', 30)?.replace(/[\s-]/g, '');
  const expMonth = card?.integer('exp_month', 0, 99);
  const expYear = card?.integer('exp_year', 0, 9999);
  const cvc = card?.string('cvc', 10);
  const billing = params.object('billing_details');
  const name = billing?.nullableString('name', 256);
  const email = billing?.nullableString('email', 512);
  const metadata = params.metadata() ?? {};
  params.finish(card, billing);
  if (type !== 'card') {
    throw invalidRequest('The billing sandbox makes only payment methods of type card.', 'type');
  }
  if (!card) throw missingParam('card');
  if (!number) throw missingParam('card[number]');
  if (expMonth === undefined) throw missingParam('card[exp_month]');
  if (expYear === undefined) throw missingParam('card[exp_year]');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    throw cardError('Your card number is invalid.', 'invalid_number', 'card[number]');
  }
  if (expMonth < 1 || expMonth > 12) {
    throw cardError(
      "Your card's expiration month is invalid.",
      'invalid_expiry_month',
      'card[exp_month]',
    );
  }
  const year = expYear < 100 ? 2000 + expYear : expYear;
  const now = new Date();
  const thisYear = now.getUTCFullYear();
  if (year < thisYear || year > thisYear + 50) {
    throw cardError(
      "Your card's expiration year is invalid.",
      'invalid_expiry_year',
      'card[exp_year]',
    );
  }
  if (year === thisYear && expMonth < now.getUTCMonth() + 1) {
    throw cardError(
      "Your card's expiration month is invalid.",
      'invalid_expiry_month',
      'card[exp_month]',
    );
  }
  if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) {
    throw cardError("Your card's security code is invalid.", 'invalid_cvc', 'card[cvc]');
  }
  const brand = brandOf(number);
  const fingerprint = createHmac('sha256', await sandboxSecretKey(db))
    .update(`card:${number}`)
    .digest('hex')
    .slice(0, 16);
  const paymentMethod: SandboxObject = {
    id: newObjectId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: billingDetails(email ?? null, name ?? null),
    card: {
      brand,
      checks: {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: cvc === undefined ? null : 'pass',
      },
      country: 'US',
      display_brand: brand,
      exp_month: expMonth,
      exp_year: year,
      fingerprint,
      funding: 'credit',
      generated_from: null,
      last4: number.slice(-4),
      networks: { available: [brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata,
    type: 'card',
  };
  await insertObject(db, PAYMENT_METHOD_TYPE, paymentMethod);
  await insertObject(db, CARD_STATE_TYPE, {
    id: `cardstate_${paymentMethod.id}`,
    object: CARD_STATE_TYPE,
    created: paymentMethod.created,
    behavior: TEST_CARD_BEHAVIORS[number] ?? 'succeeds',
    charges: 0,
  });
  return paymentMethod;
}

async function requirePaymentMethod(db: Db, id: string, param = 'id'): Promise<SandboxObject> {
  return requireObject(db, PAYMENT_METHOD_TYPE, id, { param });
}

async function attach(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const customerId = params.requiredString('customer', 200);
  params.finish();
  return changeLocked(context, PAYMENT_METHOD_TYPE, async (db, current) => {
    const customer = await findObject(db, 'customer', customerId);
    if (!customer) throw resourceMissing('customer', customerId, 'customer');
    if (current.customer === customerId) return current;
    if (current.customer !== null) {
      throw invalidRequest(
        'The payment method you provided has already been attached to a customer.',
        undefined,
        'payment_method_unexpected_state',
      );
    }
    const state = await findObject(db, CARD_STATE_TYPE, `cardstate_${current.id}`);
    if (state?.behavior === 'declined_on_attach') throw cardDeclined();
    if (state?.behavior === 'insufficient_funds_on_attach') throw insufficientFunds();
    const attached: SandboxObject = { ...current, customer: customerId };
    await saveObject(db, attached);
    return attached;
  });
}

async function detach(context: RouteContext): Promise<SandboxObject> {
  context.params.finish();
  return changeLocked(context, PAYMENT_METHOD_TYPE, async (db, current) => {
    if (current.customer === null) {
      throw invalidRequest(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
        undefined,
        'payment_method_unexpected_state',
      );
    }
    const customer = await findObjectForUpdate(db, 'customer', current.customer as string);
    const settings = customer?.invoice_settings as Record<string, unknown> | undefined;
    if (customer && settings?.default_payment_method === current.id) {
      await saveObject(db, {
        ...customer,
        invoice_settings: { ...settings, default_payment_method: null },
      });
    }
    const detached: SandboxObject = { ...current, customer: null };
    await saveObject(db, detached);
    return detached;
  });
}

/** The list's filters; `customerFromPath` for /v1/customers/:id/payment_methods. */
async function listFilters(context: RouteContext, customerFromPath?: string) {
  const { params } = context;
  const filters: FieldFilter[] = [];
  const customer = customerFromPath ?? params.string('customer', 200);
  if (
    customerFromPath !== undefined &&
    !(await findObject(context.db, 'customer', customerFromPath))
  ) {
    throw resourceMissing('customer', customerFromPath);
  }
  if (customer) filters.push({ field: 'customer', in: [customer] });
  const type = params.string('type', 50);
  if (type) filters.push({ field: 'type', in: [type] });
  return filters;
}

/** Checks that a payment method may be a default of this customer (attached to it). */
export async function requireAttachedPaymentMethod(
  db: Db,
  id: string,
  customerId: string,
  param: string,
): Promise<SandboxObject> {
  const paymentMethod = await requirePaymentMethod(db, id, param);
  if (paymentMethod.customer !== customerId) {
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      param,
    );
  }
  return paymentMethod;
}

export const paymentMethodRoutes: Route[] = [
  ...resourceRoutes(['payment_methods'], PAYMENT_METHOD_TYPE, {
    create,
    filters: (context) => listFilters(context),
  }),
  { method: 'POST', pattern: ['payment_methods', ':id', 'attach'], handle: attach },
  { method: 'POST', pattern: ['payment_methods', ':id', 'detach'], handle: detach },
  listRoute(['customers', ':id', 'payment_methods'], PAYMENT_METHOD_TYPE, {
    filters: (context) => listFilters(context, context.id ?? ''),
  }),
];
