import 'server-only';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '@/server/platform/db/client';
import { guestCheckouts } from '@/server/platform/db/schema';

/**
 * The records of checkouts paid by visitors (guest-checkout.ts), kept apart so that the webhook
 * records them without the flow around them: a visitor's completed session is stored unclaimed,
 * applied to nobody until an account claims it.
 */

/** The session's metadata that marks a visitor's checkout. */
export const GUEST_FLAG = 'guest';

export type PaidGuest = {
  sessionId: string;
  email: string;
  customerId: string;
  subscriptionId: string;
  plan: string;
  /** When the checkout was made: when the visitor gave their consent on our screen. */
  createdAt: Date;
};

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export const isGuestSession = (session: Pick<Stripe.Checkout.Session, 'metadata'>) =>
  session.metadata?.[GUEST_FLAG] === '1';

/** A visitor's completed checkout, as the provider reports it; null for anything else. */
export function paidGuestOf(session: Stripe.Checkout.Session): PaidGuest | null {
  const customerId = idOf(session.customer);
  const subscriptionId = idOf(session.subscription);
  // The address we gave the provider, not one the payer could have typed on its page.
  const email = session.customer_email?.trim().toLowerCase();
  if (!isGuestSession(session) || session.status !== 'complete') return null;
  if (!customerId || !subscriptionId || !email) return null;
  return {
    sessionId: session.id,
    email,
    customerId,
    subscriptionId,
    plan: session.metadata?.plan ?? '',
    createdAt: new Date(session.created * 1000),
  };
}

/** Records a visitor's paid checkout, unclaimed (the webhook and the return route alike). */
export async function recordGuestCheckout(db: Db, paid: PaidGuest): Promise<void> {
  await db
    .insert(guestCheckouts)
    .values({
      sessionId: paid.sessionId,
      email: paid.email,
      customerId: paid.customerId,
      subscriptionId: paid.subscriptionId,
      plan: paid.plan,
    })
    .onConflictDoNothing();
}

export async function guestRow(db: Db, sessionId: string) {
  const [row] = await db
    .select()
    .from(guestCheckouts)
    .where(eq(guestCheckouts.sessionId, sessionId));
  return row ?? null;
}
