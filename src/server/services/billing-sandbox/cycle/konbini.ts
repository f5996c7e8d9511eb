import 'server-only';
import { randomInt } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { invalidRequest, resourceMissing } from '../errors';
import { konbiniVoucherPath } from '../hosted/paths';
import {
  type FieldFilter,
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  nowSeconds,
} from '../object-store';
import { CHECKOUT_SESSION_TYPE, settleAsyncCheckout } from '../resources/checkout-sessions';
import { PAYMENT_METHOD_TYPE, createOneTimePaymentMethod } from '../resources/payment-methods';
import { CLOCK_TYPE, DAY, num } from './calendar';
import {
  PAYMENT_STATE_TYPE,
  type PaymentState,
  awaitAction,
  failPayment,
  lastPaymentError,
  lockPaymentIntent,
  paymentNow,
  paymentStateOf,
  savePaymentState,
  succeedPayment,
} from './one-time-payments';

/**
 * Konbini payments: the voucher a confirmed payment waits on (`requires_action`, with
 * `next_action.konbini_display_details`: the deadline, the voucher page, a payment code and
 * confirmation number per chain), its payment at a store (the sandbox's test helper: Stripe's
 * test mode pays by itself after a while instead) and its expiry unpaid at the deadline, each
 * with Stripe's events on the PaymentIntent and its Checkout Session. Time is the customer's
 * test clock's if it has one (moved on by the clock's advance), else the real time (moved on by
 * the background runner, runner.ts).
 */

export const KONBINI_CHAINS = ['familymart', 'lawson', 'ministop', 'seicomart'] as const;
export type KonbiniChain = (typeof KONBINI_CHAINS)[number];

const JST_OFFSET = 9 * 60 * 60;

/**
 * When a voucher confirmed at `at` expires: `days` calendar days later at 23:59:59 in Japan
 * (Stripe's rule: two days after a Monday is Wednesday 23:59:59 JST).
 */
export function konbiniDeadline(at: number, days: number): number {
  const japanDay = Math.floor((at + JST_OFFSET) / DAY);
  return (japanDay + days + 1) * DAY - JST_OFFSET - 1;
}

const digits = (count: number) =>
  Array.from({ length: count }, () => String(randomInt(10))).join('');

/**
 * The confirmed konbini payment waits for the customer at a store: a konbini payment method,
 * the voucher (`payment_intent.requires_action`), and its deadline kept beside it.
 */
export async function issueKonbiniVoucher(
  db: Db,
  payment: { intent: SandboxObject; state: PaymentState },
  options: { days: number; at: number; origin: string; name: string | null },
): Promise<SandboxObject> {
  const { intent, state } = payment;
  const billing = { email: state.email, name: options.name };
  const method = await createOneTimePaymentMethod(db, 'konbini', billing, options.at);
  const expiresAt = konbiniDeadline(options.at, options.days);
  // One confirmation number for every chain (Stripe's is the customer's phone number or one
  // the merchant sets); a payment code per chain.
  const confirmationNumber = digits(11);
  const stores = Object.fromEntries(
    KONBINI_CHAINS.map((chain) => [
      chain,
      { confirmation_number: confirmationNumber, payment_code: digits(6) },
    ]),
  );
  const waiting = await awaitAction(
    db,
    intent,
    method.id,
    {
      type: 'konbini_display_details',
      konbini_display_details: {
        expires_at: expiresAt,
        hosted_voucher_url: `${options.origin}${konbiniVoucherPath(intent.id)}`,
        stores,
      },
    },
    options.at,
  );
  await savePaymentState(db, { ...state, voucher_expires_at: expiresAt, voucher_status: 'open' });
  return waiting;
}

type Voucher = { intent: SandboxObject; state: PaymentState; session: SandboxObject };

/**
 * A konbini payment under its locks, in the order every write takes them: its customer's test
 * clock's row (a clock's advance holds it while it expires vouchers, and paying one invoices
 * the customer), its session's row, then its PaymentIntent's. With `skipLocked`, null at once
 * when another transaction holds one.
 */
async function lockVoucher(db: Db, id: string, skipLocked = false): Promise<Voucher | null> {
  const found = await paymentStateOf(db, id);
  if (!found?.voucher_status) return null;
  const clock = found.test_clock
    ? await findObjectForUpdate(db, CLOCK_TYPE, found.test_clock, { skipLocked })
    : null;
  if (found.test_clock && !clock) return null;
  const session = await findObjectForUpdate(db, CHECKOUT_SESSION_TYPE, found.checkout_session, {
    skipLocked,
  });
  const intent = session ? await lockPaymentIntent(db, id, { skipLocked }) : null;
  const state = intent ? await paymentStateOf(db, id) : null;
  return session && intent && state ? { intent, state, session } : null;
}

/**
 * Unpaid at its deadline: the PaymentIntent goes back to `requires_payment_method`
 * (`payment_intent.payment_failed`, `payment_intent_payment_attempt_expired`) and the session
 * records `checkout.session.async_payment_failed`, both dated at the deadline.
 */
async function expireVoucher(db: Db, voucher: Voucher): Promise<void> {
  const at = voucher.state.voucher_expires_at ?? nowSeconds();
  const method = voucher.intent.payment_method;
  const error = lastPaymentError(
    'payment_intent_payment_attempt_expired',
    typeof method === 'string' ? { id: method } : null,
  );
  await failPayment(db, voucher.intent, error, at);
  await savePaymentState(db, { ...voucher.state, voucher_status: 'expired' });
  await settleAsyncCheckout(db, voucher.session, false, at);
}

const isDue = (state: PaymentState, now: number) =>
  state.voucher_status === 'open' && (state.voucher_expires_at ?? Infinity) < now;

type PayOutcome =
  | { paid: true; intent: SandboxObject }
  | { paid: false; reason: 'missing' | 'expired' | 'settled'; status: string };

async function payVoucher(db: Db, id: string, store: KonbiniChain): Promise<PayOutcome> {
  return db.transaction(async (tx) => {
    const voucher = await lockVoucher(tx, id);
    if (!voucher) return { paid: false, reason: 'missing', status: '' };
    const now = await paymentNow(tx, voucher.state);
    // Past its deadline but not yet expired by the runner: it expires now, as it would have.
    if (isDue(voucher.state, now)) {
      await expireVoucher(tx, voucher);
      return { paid: false, reason: 'expired', status: 'requires_payment_method' };
    }
    const { intent, state, session } = voucher;
    if (state.voucher_status !== 'open' || intent.status !== 'requires_action') {
      const reason = state.voucher_status === 'expired' ? 'expired' : 'settled';
      return { paid: false, reason, status: String(intent.status) };
    }
    const method = await findObject(tx, PAYMENT_METHOD_TYPE, String(intent.payment_method));
    if (!method) throw new Error(`billing sandbox: no payment method for ${id}`);
    const paid = await succeedPayment(tx, intent, method, now, { store });
    await savePaymentState(tx, { ...state, voucher_status: 'paid' });
    await settleAsyncCheckout(tx, session, true, now);
    return { paid: true, intent: paid };
  });
}

/**
 * The sandbox's test helper (not Stripe's API): pays the konbini payment at `store`, as a
 * customer paying at the till — a succeeded charge (`charge.succeeded`,
 * `payment_details.konbini.store.chain`), `payment_intent.succeeded` and the session's
 * `checkout.session.async_payment_succeeded`. An unknown PaymentIntent is Stripe's 404; one not
 * waiting for a konbini payment (paid, expired) is refused (400), an expiry due meanwhile
 * committed first.
 */
export async function payKonbiniPayment(
  db: Db,
  id: string,
  store: KonbiniChain = 'familymart',
): Promise<SandboxObject> {
  const outcome = await payVoucher(db, id, store);
  if (outcome.paid) return outcome.intent;
  if (outcome.reason === 'missing') throw resourceMissing('payment_intent', id);
  throw invalidRequest(
    outcome.reason === 'expired'
      ? `The konbini payment instructions of PaymentIntent ${id} have expired: it can no longer be paid.`
      : `PaymentIntent ${id} is not waiting for a konbini payment (its status is ${outcome.status}).`,
    undefined,
    'payment_intent_unexpected_state',
  );
}

/**
 * Pays the oldest konbini payment still open of the payer with that e-mail (the customer's, or
 * the session's customer_email), any case: the admin command's `billing-konbini-pay`. Answers
 * the paid PaymentIntent, or null when none is open; expiries due on the way are committed.
 */
export async function payOldestKonbiniPayment(
  db: Db,
  email: string,
  store: KonbiniChain = 'familymart',
): Promise<SandboxObject | null> {
  const open = await findAllObjects(db, PAYMENT_STATE_TYPE, [
    { field: 'voucher_status', in: ['open'] },
    { field: 'email', in: [email], caseInsensitive: true },
  ]);
  for (const state of open) {
    const outcome = await payVoucher(db, String(state.payment_intent), store);
    if (outcome.paid) return outcome.intent;
  }
  return null;
}

/**
 * Expires the open vouchers whose deadline is before `now`: those of the customers of `clock`
 * (its advance, in the caller's transaction, which holds the clock's row), else those without
 * a clock (the runner's tick; one transaction each, a voucher whose rows another transaction
 * holds skipped until the next tick). Oldest deadline first. Answers how many expired.
 */
export async function expireKonbiniPayments(
  db: Db,
  now: number,
  clock: string | null = null,
): Promise<number> {
  const byClock: FieldFilter = clock
    ? { field: 'test_clock', in: [clock] }
    : { field: 'test_clock', isNull: true };
  const due = await findAllObjects(db, PAYMENT_STATE_TYPE, [
    { field: 'voucher_status', in: ['open'] },
    byClock,
    { field: 'voucher_expires_at', lt: now },
  ]);
  due.sort((a, b) => num(a, 'voucher_expires_at') - num(b, 'voucher_expires_at'));
  let expired = 0;
  for (const { payment_intent: id } of due) {
    const expire = async (tx: Db) => {
      const voucher = await lockVoucher(tx, String(id), clock === null);
      if (!voucher || !isDue(voucher.state, now)) return false;
      await expireVoucher(tx, voucher);
      return true;
    };
    try {
      if (clock ? await expire(db) : await db.transaction(expire)) expired++;
    } catch (error) {
      // One broken payment must not stop the others on every tick (a clock's advance rolls back).
      if (clock) throw error;
      console.error(`[billing-sandbox] could not expire ${String(id)}:`, error);
    }
  }
  return expired;
}
