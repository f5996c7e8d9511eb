import 'server-only';
import { type PurchaseMethod, methodsFor, taxIn } from '@/lib/billing/purchase';
import { tipConfirmPath, tipName } from '@/lib/billing/tip';
import { findItem, postSchema } from '@/server/features/content';
import type { AppUser } from '@/server/features/identity';
import { type Purchase, insertPendingPurchase, newPurchaseId } from '@/server/features/purchases';
import type { Db } from '@/server/platform/db/client';
import { CheckoutRefused } from './checkout';
import { ensureCustomer } from './customers';
import { billingProvider } from './provider';
import { checkMethod, openPaymentSession } from './purchase-checkout';

/**
 * A tip for a post (チップ, docs/decisions/053-one-time-payments.md): from its final
 * confirmation screen to the provider's hosted checkout in payment mode, the way a single
 * article goes (purchase-checkout.ts). The amount is the reader's choice, validated at the
 * endpoint (src/lib/billing/tip.ts); the pending row is written with it before the session is
 * made with exactly that amount. A tip opens nothing, and a reader may tip a post many times.
 */

/** The published post a tip is for; a missing post or a draft is refused. */
export async function tippablePost(contentId: string) {
  const post = await findItem('posts', postSchema, contentId);
  if (!post) throw new CheckoutRefused('purchase-refused', 'この記事は見つかりません。');
  return post;
}

/** What the tip's confirmation screen offers: the post and the ways to pay this amount. */
export async function tipOffer(contentId: string, amount: number) {
  try {
    const post = await tippablePost(contentId);
    return { post: { id: post.id, title: post.title }, methods: methodsFor(amount) };
  } catch (error) {
    if (error instanceof CheckoutRefused) return { refused: error.message };
    throw error;
  }
}

export async function startTip(
  db: Db,
  user: AppUser,
  tip: { contentId: string; amount: number; message: string | null; method: PurchaseMethod },
  ip: string | null,
): Promise<{ url: string; purchase: Purchase }> {
  const post = await tippablePost(tip.contentId);
  checkMethod(tip.method, tip.amount);
  const provider = await billingProvider(db);
  const customerId = await ensureCustomer(db, { id: user.id, email: user.email, name: user.name });
  const purchase = await insertPendingPurchase(db, {
    id: newPurchaseId(),
    userId: user.id,
    kind: 'tip',
    post,
    message: tip.message,
    amount: tip.amount,
    tax: taxIn(tip.amount),
    method: tip.method,
    customerId,
  });
  // Tips are not held by the one-live-purchase index: only a clash of ids could refuse it.
  if (!purchase) throw new Error('billing: the tip was not written');
  return openPaymentSession(db, provider, purchase, {
    userId: user.id,
    ip,
    name: tipName(post.title),
    cancelPath: tipConfirmPath(post.id, { amount: tip.amount, message: tip.message }),
  });
}
