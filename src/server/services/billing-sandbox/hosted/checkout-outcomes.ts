import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { type PaymentState, paymentNow } from '../cycle/one-time-payments';
import { type SandboxObject, findObject, requireObject } from '../object-store';
import { completePaymentCheckoutSession, successUrlOf } from '../resources/checkout-sessions';
import { PAYMENT_METHOD_TYPE } from '../resources/payment-methods';
import { DECLINED_MESSAGE } from './card-form';
import { messagePage, redirect } from './layout';
import { konbiniVoucherPath } from './paths';

/**
 * How the checkout pages end, in either mode: a session that is no longer open (completed:
 * on to its success_url; expired), the reasons a payment that did not go through is shown
 * again on the page (`?error=`), and the completion of a `payment`-mode session once paid.
 */

/** Shown on the card form after a failed 3-D Secure challenge (`?error=authentication_failed`). */
export const AUTHENTICATION_FAILED_MESSAGE =
  'カードの本人認証に失敗しました。別のカードをお試しください。';

export const PAYPAY_DECLINED_MESSAGE =
  'PayPayでのお支払いが完了しませんでした（承認されませんでした）。もう一度お試しいただくか、別のお支払い方法をお選びください。';

/** What a page that sends the reader back to the checkout says about it, by `?error=`. */
export const CHECKOUT_ERRORS: Record<string, string> = {
  authentication_failed: AUTHENTICATION_FAILED_MESSAGE,
  paypay_declined: PAYPAY_DECLINED_MESSAGE,
  card_declined: DECLINED_MESSAGE,
};

const isPayment = (session: SandboxObject) => session.mode === 'payment';

function expiredPage(session: SandboxObject): Response {
  const cancelUrl = typeof session.cancel_url === 'string' ? session.cancel_url : null;
  return messagePage(
    isPayment(session)
      ? 'このお支払いページは有効期限が切れています'
      : 'このお申し込みページは有効期限が切れています',
    isPayment(session)
      ? 'お手数ですが、サイトからもう一度お手続きください。'
      : 'お手数ですが、サイトからもう一度お申し込みください。',
    cancelUrl ? { href: cancelUrl, label: 'サイトに戻る' } : null,
    410,
  );
}

export function completedPage(session: SandboxObject): Response {
  const successUrl = successUrlOf(session);
  // A konbini payment's session completes unpaid: its voucher is what the reader needs.
  if (isPayment(session) && session.payment_status === 'unpaid') {
    return messagePage(
      'コンビニでのお支払いをお待ちしています',
      'お支払い番号は発行済みです。期限までにコンビニでお支払いください。',
      { href: konbiniVoucherPath(String(session.payment_intent)), label: 'お支払い番号を表示する' },
    );
  }
  return messagePage(
    isPayment(session) ? 'お支払いの手続きは完了しています' : 'お申し込みは完了しています',
    isPayment(session)
      ? 'このお支払いの手続きはすでに完了しています。'
      : 'このお申し込みはすでに完了しています。',
    successUrl ? { href: successUrl, label: 'サイトに戻る' } : null,
  );
}

/** The page of a session that is not open. */
export function closedPage(session: SandboxObject): Response {
  return session.status === 'complete' ? completedPage(session) : expiredPage(session);
}

/** Where a post to a session that is not open sends the customer. */
export function closedAnswer(session: SandboxObject): Response {
  if (session.status === 'complete') {
    const successUrl = successUrlOf(session);
    return successUrl ? redirect(successUrl) : completedPage(session);
  }
  return expiredPage(session);
}

/**
 * Completes the locked open session its one-time payment has just paid (the payer as the
 * payment knows them), at the payment's time.
 */
export async function completePaidSession(
  db: Db,
  session: SandboxObject,
  intent: SandboxObject,
  state: PaymentState,
): Promise<SandboxObject> {
  const customer = state.customer ? await requireObject(db, 'customer', state.customer) : null;
  const method =
    typeof intent.payment_method === 'string'
      ? await findObject(db, PAYMENT_METHOD_TYPE, intent.payment_method)
      : null;
  const billing = method?.billing_details as { name?: string | null } | undefined;
  return completePaymentCheckoutSession(db, session, {
    customer,
    paymentIntent: intent.id,
    paid: true,
    payer: { email: state.email, name: billing?.name ?? null },
    at: await paymentNow(db, state),
  });
}
