/**
 * Where the sandbox's own pages live on the site, in place of Stripe's checkout.stripe.com and
 * billing.stripe.com. The session id in the path is the credential, as on Stripe: these paths
 * take no API key (http.ts sends them to hosted/pages.ts before the key is checked).
 */

const SANDBOX_PREFIX = '/billing-sandbox/';
export const CHECKOUT_PAGE_PREFIX = '/billing-sandbox/checkout/';
export const PORTAL_PAGE_PREFIX = '/billing-sandbox/portal/';
/** The simulated card issuer's 3-D Secure challenge for one PaymentIntent (`pi_…`). */
export const AUTHENTICATION_PAGE_PREFIX = '/billing-sandbox/authenticate/';

/** The simulated PayPay approval (承認 / 拒否) of one PaymentIntent, where PayPay redirects. */
export const PAYPAY_PAGE_PREFIX = '/billing-sandbox/paypay/';
/** A konbini payment's voucher (Stripe's `hosted_voucher_url`). */
export const KONBINI_VOUCHER_PREFIX = '/billing-sandbox/konbini/';

export function payPayPagePath(paymentIntentId: string): string {
  return `${PAYPAY_PAGE_PREFIX}${encodeURIComponent(paymentIntentId)}`;
}

export function konbiniVoucherPath(paymentIntentId: string): string {
  return `${KONBINI_VOUCHER_PREFIX}${encodeURIComponent(paymentIntentId)}`;
}

export function authenticationPagePath(paymentIntentId: string): string {
  return `${AUTHENTICATION_PAGE_PREFIX}${encodeURIComponent(paymentIntentId)}`;
}

export function checkoutPagePath(sessionId: string): string {
  return `${CHECKOUT_PAGE_PREFIX}${encodeURIComponent(sessionId)}`;
}

/** The portal's home page, or one of its sub-pages (`cancel`, `card`, …). */
export function portalPagePath(sessionId: string, ...rest: string[]): string {
  return [
    `${PORTAL_PAGE_PREFIX}${encodeURIComponent(sessionId)}`,
    ...rest.map(encodeURIComponent),
  ].join('/');
}

export function isHostedPagePath(pathname: string): boolean {
  return (
    pathname.startsWith(CHECKOUT_PAGE_PREFIX) ||
    pathname.startsWith(PORTAL_PAGE_PREFIX) ||
    pathname.startsWith(AUTHENTICATION_PAGE_PREFIX) ||
    pathname.startsWith(PAYPAY_PAGE_PREFIX) ||
    pathname.startsWith(KONBINI_VOUCHER_PREFIX)
  );
}

/** Whether a path is the sandbox's (its API under /billing-sandbox/v1/ or one of its pages). */
export function isBillingSandboxPath(pathname: string): boolean {
  return pathname.startsWith(SANDBOX_PREFIX);
}
