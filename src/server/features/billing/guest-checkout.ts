import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { env } from '@/env';
import { withKeyLock } from '@/lib/keyed-lock';
import { safeNextPath } from '@/lib/safe-next';
import { z } from '@/lib/zod';
import { type ContentRef } from '@/server/features/attribution';
import {
  ACCOUNT_MAIL_LIMITS,
  type AppUser,
  type Auth,
  createAccountWithoutPassword,
  issueSignInToken,
  nameFromAddress,
  sendCappedMail,
  SIGN_IN_LINK_SECONDS,
  signInUnconfirmed,
  withSignUpConsent,
} from '@/server/features/identity';
import { recordAudit, recordOwnAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { guestCheckouts, user as userTable } from '@/server/platform/db/schema';
import {
  GUEST_CHECKOUT_COOKIE,
  readCookieHeader,
  setCookieValue,
} from '@/server/platform/http/cookies';
import { maskAddress } from '@/server/platform/mail/mailer';
import { mails } from '@/server/platform/mail/templates';
import { signJsonToken, verifyJsonToken } from '@/server/platform/security/signing';
import { type PlanKey } from '@/lib/billing/plans';
import {
  type CheckoutOutcome,
  checkoutReturnPath,
  checkoutTerms,
  planOnSale,
  recordedOutcome,
  sessionParams,
  startDetail,
} from './checkout';
import { linkGuestCustomer } from './customers';
import {
  GUEST_FLAG,
  type PaidGuest,
  guestRow,
  isGuestSession,
  paidGuestOf,
  recordGuestCheckout,
} from './guest-records';
import { chargesAt } from './one-plan';
import { billingProvider } from './provider';
import { applyClaimedCheckout } from './webhook';

/**
 * A visitor pays with an e-mail address only (docs/decisions/039-reader-path.md, the amendment
 * of 2026-11-29): the final confirmation screen posts the address, the plan and the consent; the
 * checkout is made with `customer_email` (the provider makes the customer) and the answer is the
 * same whether or not an account uses the address, so nothing is learnt before paying. A signed
 * cookie binds the browser that started it to the session.
 *
 * Paid, the checkout is recorded here and applied to nobody until an account claims it
 * (claimGuestCheckout): when no account uses the address, one is made from it (no password, the
 * address unconfirmed) and claims it, the browser the cookie binds is signed in to it, and a
 * sign-in link that confirms the address is mailed. An address that has an account is never
 * signed in by paying: its owner signs in (password or link) and, signed in with the address
 * confirmed, claims the plan on the way back to the article.
 */

const PURPOSE = 'guest-checkout';
/** As long as the checkout session lives (the provider's default: 24 hours). */
const COOKIE_SECONDS = 24 * 60 * 60;
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,200}$/;

const secure = () => env().SITE_URL.startsWith('https:');

/** The Set-Cookie that binds this browser to the checkout session it started. */
export function guestCheckoutCookie(sessionId: string, now = Date.now()): string {
  const token = signJsonToken(PURPOSE, { s: sessionId }, { seconds: COOKIE_SECONDS, now });
  return setCookieValue(GUEST_CHECKOUT_COOKIE, token, {
    maxAgeSeconds: COOKIE_SECONDS,
    secure: secure(),
  });
}

/** Forgets the binding (once the checkout is the account's). */
export function clearGuestCheckoutCookie(): string {
  return setCookieValue(GUEST_CHECKOUT_COOKIE, '', { maxAgeSeconds: 0, secure: secure() });
}

/** The checkout session a request's cookie binds the browser to, if a valid one does. */
export function boundGuestSession(headers: Pick<Headers, 'get'>, now = Date.now()): string | null {
  const token = readCookieHeader(headers.get('cookie') ?? undefined)?.get(GUEST_CHECKOUT_COOKIE);
  return verifyJsonToken(PURPOSE, token, z.object({ s: z.string() }), { now })?.s ?? null;
}

export type GuestCheckoutStart = { url: string; setCookie: string };

/**
 * The provider's checkout for a visitor: the terms a new account gets (the same functions as a
 * member's checkout), the address as `customer_email`. Nothing here looks the address up.
 */
export async function startGuestCheckout(
  db: Db,
  input: {
    email: string;
    plan: PlanKey;
    next: string;
    offer?: string;
    ip: string | null;
    source: ContentRef | null;
  },
): Promise<GuestCheckoutStart> {
  const plan = await planOnSale(db, input.plan);
  const terms = await checkoutTerms(db, null, plan, input.offer);
  const { stripe } = await billingProvider(db);
  // The provider keeps 500 characters of a metadata value: a longer `next` is in the URLs only.
  const next: Record<string, string> = input.next.length <= 500 ? { next: input.next } : {};
  const session = await stripe.checkout.sessions.create({
    ...sessionParams(terms, {
      next: input.next,
      metadata: { [GUEST_FLAG]: '1', email: input.email, plan: plan.key, ...next },
      source: input.source,
    }),
    customer_email: input.email,
  });
  if (!session.url) throw new Error('billing: the checkout session has no URL');
  await recordAudit(db, {
    actor: 'anonymous',
    action: 'billing.checkout.start',
    target: `email:${maskAddress(input.email)}`,
    ip: input.ip,
    detail: { ...startDetail(session.id, terms), guest: true },
  });
  return { url: session.url, setCookie: guestCheckoutCookie(session.id) };
}

/**
 * The account `reader` claims the checkout, once: its customer becomes theirs (customers.ts),
 * the plan is applied by the webhook's own code (one plan per reader kept by one-plan.ts) and
 * the claim is audited as a plan change. True when the checkout is (now or already) theirs.
 */
async function claimGuestCheckout(
  db: Db,
  paid: PaidGuest,
  reader: { id: string },
  ip: string | null,
): Promise<boolean> {
  const [claimed] = await db
    .update(guestCheckouts)
    .set({ claimedBy: reader.id, claimedAt: new Date() })
    .where(and(eq(guestCheckouts.sessionId, paid.sessionId), isNull(guestCheckouts.claimedAt)))
    .returning({ sessionId: guestCheckouts.sessionId });
  if (!claimed) return (await guestRow(db, paid.sessionId))?.claimedBy === reader.id;
  const switched = await linkGuestCustomer(db, reader.id, paid.customerId, (customer) =>
    chargesAt(db, customer),
  );
  try {
    await applyClaimedCheckout(db, paid.subscriptionId);
  } catch (error) {
    // Applied again by the return (recordedOutcome) and by the provider's next events.
    console.error('[billing] a claimed checkout could not be applied at once:', error);
  }
  await recordAudit(db, {
    actor: `user:${reader.id}`,
    action: 'billing.guest-checkout.claimed',
    target: `user:${reader.id}`,
    ip,
    detail: {
      session: paid.sessionId,
      subscription: paid.subscriptionId,
      customer: paid.customerId,
      plan: paid.plan,
      customerIsOwn: switched,
    },
  });
  return true;
}

export type GuestReturn =
  /** The checkout is the reader's: applied, and the browser signed in if it was made so. */
  | { kind: 'claimed'; outcome: CheckoutOutcome; setCookies: string[] }
  /** Paid; the owner of the address signs in to claim it (`email` masked for the page). */
  | { kind: 'sign-in'; email: string }
  | { kind: 'pending' }
  | { kind: 'not-found' };

export type GuestReturnContext = {
  headers: Headers;
  ip: string | null;
  /** Who is signed in on this browser. */
  viewer: AppUser | null;
  /** The page the reader came from: the mailed link returns through here to it. */
  next: string;
};

/**
 * The return from the provider's page of a visitor's checkout (or a later visit of the same
 * URL): what is done, and for whom, is decided by the session as the provider reports it and
 * by who asks — never by the URL alone, which anyone may have. See the module's comment.
 */
export async function returnFromGuestCheckout(
  deps: { db: Db; auth: Auth },
  session: Stripe.Checkout.Session,
  ctx: GuestReturnContext,
): Promise<GuestReturn> {
  const { db } = deps;
  if (!isGuestSession(session)) return { kind: 'not-found' };
  const paid = paidGuestOf(session);
  if (!paid) return session.status === 'open' ? { kind: 'pending' } : { kind: 'not-found' };
  await recordGuestCheckout(db, paid);
  const { viewer } = ctx;
  const claimed = async (setCookies: string[] = []): Promise<GuestReturn> => ({
    kind: 'claimed',
    outcome: await recordedOutcome(db, paid.subscriptionId, viewer?.id ?? ''),
    setCookies,
  });
  const signIn: GuestReturn = { kind: 'sign-in', email: maskAddress(paid.email) };
  // The signed-in owner of the address, confirmed (the made account's own browser has claimed
  // it already): the plan is theirs.
  const row = await guestRow(db, paid.sessionId);
  if (viewer && row?.claimedBy === viewer.id) return claimed();
  if (viewer?.emailVerified && viewer.email.toLowerCase() === paid.email) {
    return (await claimGuestCheckout(db, paid, viewer, ctx.ip)) ? claimed() : signIn;
  }
  if (row?.claimedAt) return signIn;
  const accountOf = async () => {
    const [existing] = await db
      .select({ id: userTable.id })
      .from(userTable)
      .where(eq(sql`lower(${userTable.email})`, paid.email));
    return existing ?? null;
  };
  return withKeyLock(`guest-checkout:${paid.email}`, async () => {
    // An account uses the address: paying signs nobody in to it. Its owner signs in to claim.
    if (await accountOf()) return signIn;
    let made: { id: string };
    try {
      made = await makeAccount(deps, paid, ctx);
    } catch (error) {
      // Made meanwhile by another instance's return of the same checkout (the address is
      // unique): that one signs its browser in, if any.
      if (await accountOf()) return signIn;
      throw error;
    }
    // Only the browser that started this checkout, and only while no one is signed in on it.
    const bound = boundGuestSession(ctx.headers) === paid.sessionId;
    if (!bound || viewer) return signIn;
    const setCookies = await signInUnconfirmed(deps.auth, made.id, ctx.headers);
    return {
      kind: 'claimed',
      outcome: await recordedOutcome(db, paid.subscriptionId, made.id),
      setCookies: [...setCookies, clearGuestCheckoutCookie()],
    };
  });
}

/**
 * The account of an address that had none: made from the address (no password, unconfirmed, the
 * consent the confirmation screen required), the checkout claimed and applied, the sign-up
 * audited, and a sign-in link mailed that confirms the address and comes back through the
 * return route to the article.
 */
async function makeAccount(
  deps: { db: Db; auth: Auth },
  paid: PaidGuest,
  ctx: GuestReturnContext,
): Promise<{ id: string; email: string; name: string }> {
  const { db, auth } = deps;
  const made = await withSignUpConsent(
    {
      termsAcceptedAt: paid.createdAt,
      newsletter: false,
      page: '/service-plans/confirm',
      ip: ctx.ip,
      userAgent: ctx.headers.get('user-agent'),
    },
    () =>
      createAccountWithoutPassword(auth, {
        email: paid.email,
        name: nameFromAddress(paid.email),
        method: 'guest-checkout',
      }),
  );
  await recordOwnAction(db, made.id, 'sign-up', {
    ip: ctx.ip,
    detail: { method: 'guest-checkout', session: paid.sessionId },
  });
  await claimGuestCheckout(db, paid, made, ctx.ip);
  const next = safeNextPath(checkoutReturnPath(paid.sessionId, ctx.next), env().SITE_URL);
  const { url } = await issueSignInToken(auth, made.email, ctx.headers, next);
  const outcome = await recordedOutcome(db, paid.subscriptionId, made.id);
  const planName = outcome.state === 'recorded' ? outcome.planName : 'お申し込みのプラン';
  await sendCappedMail(
    db,
    ACCOUNT_MAIL_LIMITS.signInLink,
    mails.paidSignInLink(made.email, made.name, planName, {
      url,
      userId: made.id,
      lifetimeSeconds: SIGN_IN_LINK_SECONDS,
    }),
  );
  return made;
}

/** The checkout session of a return, through the SDK; null for an id that is none. */
export async function retrieveCheckout(
  db: Db,
  sessionId: string,
): Promise<Stripe.Checkout.Session | null> {
  if (!SESSION_ID.test(sessionId)) return null;
  const { stripe } = await billingProvider(db);
  return stripe.checkout.sessions.retrieve(sessionId).catch(() => null);
}

/**
 * What the success page shows of a visitor's checkout, without making or signing in anyone
 * (a page sets no cookies; the return route does that): the plan of the signed-in reader who
 * claimed it, or the request to sign in with the address it was paid with.
 */
export async function guestCheckoutView(
  db: Db,
  session: Stripe.Checkout.Session,
  viewer: AppUser | null,
): Promise<GuestReturn> {
  const paid = paidGuestOf(session);
  if (!paid) return session.status === 'open' ? { kind: 'pending' } : { kind: 'not-found' };
  const row = await guestRow(db, paid.sessionId);
  if (viewer && row?.claimedBy === viewer.id) {
    const outcome = await recordedOutcome(db, paid.subscriptionId, viewer.id);
    return { kind: 'claimed', outcome, setCookies: [] };
  }
  return { kind: 'sign-in', email: maskAddress(paid.email) };
}
