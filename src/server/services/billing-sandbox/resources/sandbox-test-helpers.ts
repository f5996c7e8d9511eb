import 'server-only';
import { KONBINI_CHAINS, payKonbiniPayment } from '../cycle/konbini';
import type { Route } from './route';

/**
 * The sandbox's own test helpers, not Stripe's API (so under `/v1/test_helpers/sandbox/`):
 * `POST /v1/test_helpers/sandbox/konbini_payments/pi_…/pay` (`store`: familymart (default),
 * lawson, ministop or seicomart) pays a konbini payment as a customer at the till would, where
 * Stripe's test mode pays one by itself after a few minutes. Answers the PaymentIntent.
 */
export const sandboxTestHelperRoutes: Route[] = [
  {
    method: 'POST',
    pattern: ['test_helpers', 'sandbox', 'konbini_payments', ':id', 'pay'],
    handle: async ({ db, params, id }) => {
      const store = params.oneOf('store', KONBINI_CHAINS);
      params.finish();
      return payKonbiniPayment(db, id ?? '', store);
    },
  },
];
