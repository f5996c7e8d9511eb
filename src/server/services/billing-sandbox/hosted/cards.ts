import 'server-only';
import type { Db } from '@/server/platform/db/client';
import type { SandboxObject } from '../object-store';
import { callRoute } from '../routes';
import type { CardInput } from './card-form';

/**
 * A card typed into a page becomes the customer's default payment method through the API's
 * own routes (create, attach, customers.update), so the pages keep what the API keeps and
 * refuse what it refuses: a card error (a declined 4000 0000 0000 0002 at attach) is thrown as
 * the API's StripeApiError, and the caller's transaction rolls the new card back.
 */
export async function saveDefaultCard(
  context: { db: Db; origin: string },
  customerId: string,
  card: CardInput,
): Promise<SandboxObject> {
  const paymentMethod = await callRoute(context, 'POST', ['payment_methods'], {
    type: 'card',
    card: {
      number: card.number,
      exp_month: String(card.expMonth),
      exp_year: String(card.expYear),
      cvc: card.cvc,
    },
    billing_details: { name: card.name },
  });
  await callRoute(context, 'POST', ['payment_methods', paymentMethod.id, 'attach'], {
    customer: customerId,
  });
  await callRoute(context, 'POST', ['customers', customerId], {
    invoice_settings: { default_payment_method: paymentMethod.id },
  });
  return paymentMethod;
}
