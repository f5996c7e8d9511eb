import 'server-only';
import { CHARGE_TYPE } from '../cycle/one-time-payments';
import { type Route, resourceRoutes } from './route';

/**
 * `GET /v1/charges/:id` and `GET /v1/charges?customer=&payment_intent=`: the charges of
 * one-time payments (succeeded, failed, refunded in part or whole), made by
 * cycle/one-time-payments.ts. An invoice's payment has no Charge object (refunds.ts).
 */
export const chargeRoutes: Route[] = resourceRoutes(['charges'], CHARGE_TYPE, {
  filters: ({ params }) => {
    const customer = params.string('customer', 200);
    const paymentIntent = params.string('payment_intent', 200);
    return [
      ...(customer ? [{ field: 'customer', in: [customer] }] : []),
      ...(paymentIntent ? [{ field: 'payment_intent', in: [paymentIntent] }] : []),
    ];
  },
});
