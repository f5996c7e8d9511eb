import 'server-only';
import type { Db } from '@/server/platform/db/client';
import type { FormObject } from './form-body';
import type { SandboxObject } from './object-store';
import { Params } from './params';
import { billingPortalSessionRoutes } from './resources/billing-portal-sessions';
import { cashBalanceRoutes } from './resources/cash-balances';
import { chargeRoutes } from './resources/charges';
import { checkoutSessionRoutes } from './resources/checkout-sessions';
import { couponRoutes } from './resources/coupons';
import { customerRoutes } from './resources/customers';
import { eventRoutes } from './resources/events';
import { invoiceRoutes } from './resources/invoices';
import { paymentIntentRoutes } from './resources/payment-intents';
import { paymentMethodRoutes } from './resources/payment-methods';
import { priceRoutes } from './resources/prices';
import { productRoutes } from './resources/products';
import { promotionCodeRoutes } from './resources/promotion-codes';
import { refundRoutes } from './resources/refunds';
import { sandboxTestHelperRoutes } from './resources/sandbox-test-helpers';
import type { SiteRoute } from './resources/route';
import { subscriptionRoutes } from './resources/subscriptions';
import { testClockRoutes } from './resources/test-clocks';
import { webhookEndpointRoutes } from './resources/webhook-endpoints';

/** Every route the sandbox answers, matched on the segments after /v1/. */
export const ROUTES: readonly SiteRoute[] = [
  ...productRoutes,
  ...priceRoutes,
  ...couponRoutes,
  ...promotionCodeRoutes,
  ...customerRoutes,
  ...cashBalanceRoutes,
  ...testClockRoutes,
  ...sandboxTestHelperRoutes,
  ...subscriptionRoutes,
  ...invoiceRoutes,
  ...refundRoutes,
  ...eventRoutes,
  ...paymentMethodRoutes,
  ...paymentIntentRoutes,
  ...chargeRoutes,
  ...webhookEndpointRoutes,
  ...checkoutSessionRoutes,
  ...billingPortalSessionRoutes,
];

/**
 * The segments of a path (after /v1/, or a page's prefix), each decoded. A segment with a
 * malformed escape stays as sent: it names no route, and as an id it is one no object has.
 */
export function pathSegments(rest: string): string[] {
  return rest.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

export type RouteMatch = { route: SiteRoute; id?: string };

export function matchRoute(method: string, segments: string[]): RouteMatch | null {
  for (const route of ROUTES) {
    if (route.method !== method || route.pattern.length !== segments.length) continue;
    let id: string | undefined;
    const matches = route.pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      if (part === ':id') {
        id = segment;
        return segment !== '';
      }
      return part === segment;
    });
    if (matches) return { route, id };
  }
  return null;
}

/**
 * The API as the hosted pages call it: the same route handler a request to
 * `METHOD /v1/{segments}` reaches, with the same checks, locks and events, without HTTP.
 * Throws the route's StripeApiError as the API would answer it. For routes of one object.
 */
export async function callRoute(
  context: { db: Db; origin: string },
  method: SiteRoute['method'],
  segments: string[],
  values: FormObject = {},
): Promise<SandboxObject> {
  const path = `/v1/${segments.join('/')}`;
  const match = matchRoute(method, segments);
  if (!match) throw new Error(`billing sandbox: no route for ${method} ${path}`);
  const params = new Params(values);
  const result = await match.route.handle({ ...context, params, path, id: match.id });
  if (result.object === 'list') throw new Error(`billing sandbox: ${path} answers a list`);
  return result as SandboxObject;
}
