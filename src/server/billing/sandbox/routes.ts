import 'server-only';
import { customerRoutes } from './resources/customers';
import { eventRoutes } from './resources/events';
import { invoiceRoutes } from './resources/invoices';
import { paymentMethodRoutes } from './resources/payment-methods';
import { priceRoutes } from './resources/prices';
import { productRoutes } from './resources/products';
import type { Route } from './resources/route';
import { subscriptionRoutes } from './resources/subscriptions';
import { testClockRoutes } from './resources/test-clocks';
import { webhookEndpointRoutes } from './resources/webhook-endpoints';

/** Every route the sandbox answers, matched on the segments after /v1/. */
const ROUTES: Route[] = [
  ...productRoutes,
  ...priceRoutes,
  ...customerRoutes,
  ...testClockRoutes,
  ...subscriptionRoutes,
  ...invoiceRoutes,
  ...eventRoutes,
  ...paymentMethodRoutes,
  ...webhookEndpointRoutes,
];

export type RouteMatch = { route: Route; id?: string };

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
