import 'server-only';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { z } from '@/lib/zod';
import { signJsonToken, verifyJsonToken } from '@/server/platform/security/signing';
import { PLAN_KEYS, type PlanKey } from '@/lib/billing/plans';
import { offerCodeSchema } from '@/lib/billing/offer-code';

/**
 * A visitor's intent to buy, kept from the confirmation screen (where they read the final terms
 * and created their account) to the confirmation mail's link: the plan and the page they came
 * from. It travels inside the mail's link, signed with APP_SECRET and bound to the address the
 * mail went to, so that only the reader of that mail, signed in as that address, can start the
 * checkout it names; anyone else following the URL lands on the confirmation screen instead.
 * (docs/decisions: the reader path.)
 */

const PURPOSE = 'checkout-intent';
export const START_PATH = '/service-plans/start';

/** `offer`: an offer's code the reader confirmed, checked again when the checkout starts. */
export type CheckoutIntent = { plan: PlanKey; next: string; offer?: string };

const intentShape = z.object({
  plan: z.enum(PLAN_KEYS),
  next: z.string().max(2000),
  offer: offerCodeSchema.optional(),
});

const bound = (email: string) => email.trim().toLowerCase();

/** The start path the confirmation mail's link returns to, carrying the signed intent. */
export function checkoutIntentPath(
  intent: CheckoutIntent,
  email: string,
  seconds: number,
  now = Date.now(),
): string {
  const token = signJsonToken(PURPOSE, intent, { seconds, boundTo: bound(email), now });
  return `${START_PATH}?intent=${encodeURIComponent(token)}`;
}

/** The intent of a valid, unexpired token signed for this address; null for anything else. */
export function readCheckoutIntent(
  token: string | null | undefined,
  email: string,
  now = Date.now(),
): CheckoutIntent | null {
  const intent = verifyJsonToken(PURPOSE, token ?? undefined, intentShape, {
    boundTo: bound(email),
    now,
  });
  if (!intent) return null;
  // Checked again on the way out, whatever was signed: only a local path.
  const next = safeNextPath(intent.next, env().SITE_URL);
  return { plan: intent.plan, next, ...(intent.offer ? { offer: intent.offer } : {}) };
}
