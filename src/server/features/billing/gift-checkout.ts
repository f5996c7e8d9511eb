import 'server-only';
import {
  GIFT_MONTHS,
  type GiftMonths,
  type GiftOrder,
  deliverAtFor,
  giftConfirmPath,
  giftPrice,
  giftTitle,
  planForMonths,
} from '@/lib/billing/gift-plans';
import type { PlanKey } from '@/lib/billing/plans';
import { type PurchaseMethod, methodsFor, taxIn } from '@/lib/billing/purchase';
import { insertPlanGift } from '@/server/features/gift-plans';
import type { AppUser } from '@/server/features/identity';
import { type Purchase, insertPendingGift, newPurchaseId } from '@/server/features/purchases';
import type { Db } from '@/server/platform/db/client';
import { listPlans } from './catalogue';
import { CheckoutRefused } from './checkout';
import { ensureCustomer } from './customers';
import { openPaymentSession } from './purchase-checkout';
import { billingProvider } from './provider';

/**
 * A gift of months of a plan bought (docs/decisions/054-gift-subscriptions.md): from the final
 * confirmation screen to the provider's hosted checkout in payment mode, as a single article is
 * (purchase-checkout.ts). The price is the catalogue's for the months (giftPrice), never the
 * form's; the plan named in the form must be the one the months are priced by. Nothing is sent
 * to the recipient here: only a paid gift is delivered (purchase-events.ts, gift-plans).
 */

const refuse = (message: string) => new CheckoutRefused('purchase-refused', message);

export type GiftCheckoutOrder = GiftOrder & { plan: PlanKey };

/** The order's price and title from the catalogue; a refusal says why it cannot be sold. */
async function priced(db: Db, order: GiftCheckoutOrder) {
  if (order.plan !== planForMonths(order.months)) {
    throw refuse(
      'プランと期間の組み合わせが正しくありません。ギフトの画面からもう一度お選びください。',
    );
  }
  const price = giftPrice(await listPlans(db), order.months);
  if (price === null) throw refuse('このプランのギフトは現在お申し込みいただけません。');
  return { price, title: giftTitle(order.months) };
}

/** The months on sale with their prices (the order form), from the catalogue. */
export async function giftPrices(db: Db): Promise<{ months: GiftMonths; price: number }[]> {
  const plans = await listPlans(db);
  return GIFT_MONTHS.flatMap((months) => {
    const price = giftPrice(plans, months);
    return price === null ? [] : [{ months, price }];
  });
}

/** What the confirmation screen shows: the title, the price and the ways to pay, or a refusal. */
export async function giftOffer(db: Db, order: GiftOrder) {
  try {
    const { price, title } = await priced(db, { ...order, plan: planForMonths(order.months) });
    return { title, price, methods: methodsFor(price) };
  } catch (error) {
    if (error instanceof CheckoutRefused) return { refused: error.message };
    throw error;
  }
}

export async function startGiftPurchase(
  db: Db,
  user: AppUser,
  order: GiftCheckoutOrder,
  method: PurchaseMethod,
  ip: string | null,
): Promise<{ url: string; purchase: Purchase }> {
  const { price, title } = await priced(db, order);
  const provider = await billingProvider(db);
  const customerId = await ensureCustomer(db, { id: user.id, email: user.email, name: user.name });
  const purchase = await db.transaction(async (tx) => {
    const row = await insertPendingGift(tx, {
      id: newPurchaseId(),
      userId: user.id,
      title,
      message: order.message || null,
      amount: price,
      tax: taxIn(price),
      method,
      customerId,
    });
    await insertPlanGift(tx, {
      purchaseId: row.id,
      planKey: order.plan,
      months: order.months,
      recipientEmail: order.recipient,
      deliverAt: deliverAtFor(order.deliver),
    });
    return row;
  });
  return openPaymentSession(db, provider, purchase, {
    userId: user.id,
    ip,
    name: title,
    cancelPath: giftConfirmPath(order),
    details: { plan: order.plan, months: String(order.months) },
  });
}
