import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { pathSegments } from '../routes';
import { showAuthenticationPage, submitAuthenticationPage } from './authentication-page';
import { showCheckoutPage, submitCheckoutPage } from './checkout-page';
import { messagePage, notFoundPage } from './layout';
import { showKonbiniVoucherPage } from './konbini-voucher-page';
import {
  AUTHENTICATION_PAGE_PREFIX,
  CHECKOUT_PAGE_PREFIX,
  KONBINI_VOUCHER_PREFIX,
  PAYPAY_PAGE_PREFIX,
  PORTAL_PAGE_PREFIX,
} from './paths';
import { handlePortalPage } from './portal-page';
import { handlePayPayPage } from './redirect-payment-page';

/**
 * The sandbox's pages: /billing-sandbox/checkout/:id, /billing-sandbox/portal/:id[/…], the
 * challenge and approval pages of a payment (/billing-sandbox/authenticate/:id,
 * /billing-sandbox/paypay/:id) and a konbini voucher (/billing-sandbox/konbini/:id).
 * Every answer is HTML, also a failure (a page, not the API's JSON error).
 */

function segmentsAfter(pathname: string, prefix: string): string[] | null {
  return pathname.startsWith(prefix) ? pathSegments(pathname.slice(prefix.length)) : null;
}

function notAllowed(allow: string): Response {
  const response = messagePage(
    'この操作はできません',
    'ページを読み込み直してください。',
    null,
    405,
  );
  response.headers.set('allow', allow);
  return response;
}

export async function handleHostedPage(request: Request, db: Db): Promise<Response> {
  const method = request.method.toUpperCase();
  try {
    if (method !== 'GET' && method !== 'POST') return notAllowed('GET, POST');
    const { pathname, searchParams } = new URL(request.url);
    const checkout = segmentsAfter(pathname, CHECKOUT_PAGE_PREFIX);
    if (checkout) {
      const [id] = checkout;
      if (checkout.length !== 1 || !id) return notFoundPage();
      return method === 'GET'
        ? await showCheckoutPage(db, id, searchParams)
        : await submitCheckoutPage(request, db, id);
    }
    const authentication = segmentsAfter(pathname, AUTHENTICATION_PAGE_PREFIX);
    if (authentication) {
      const [id] = authentication;
      if (authentication.length !== 1 || !id) return notFoundPage();
      return method === 'GET'
        ? await showAuthenticationPage(db, id, request)
        : await submitAuthenticationPage(request, db, id);
    }
    const payPay = segmentsAfter(pathname, PAYPAY_PAGE_PREFIX);
    if (payPay) {
      const [id] = payPay;
      if (payPay.length !== 1 || !id) return notFoundPage();
      return await handlePayPayPage(request, db, id);
    }
    const voucher = segmentsAfter(pathname, KONBINI_VOUCHER_PREFIX);
    if (voucher) {
      const [id] = voucher;
      if (voucher.length !== 1 || !id) return notFoundPage();
      return method === 'GET' ? await showKonbiniVoucherPage(db, id) : notAllowed('GET');
    }
    const portal = segmentsAfter(pathname, PORTAL_PAGE_PREFIX);
    if (portal) return await handlePortalPage(request, db, portal);
    return notFoundPage();
  } catch (error) {
    // Not the URL: its path holds the session's credential.
    console.error('[billing-sandbox] page failed:', method, error);
    return messagePage(
      'エラーが発生しました',
      '処理を完了できませんでした。しばらくしてから、もう一度お試しください。',
      null,
      500,
    );
  }
}
