import 'server-only';
import { checkoutSourceOf, pathStartOf } from '@/server/features/attribution';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { z } from '@/lib/zod';
import { getDb } from '@/server/platform/db/client';
import {
  appAuth,
  clearSentMailCookie,
  emailField,
  endpoint,
  getUser,
} from '@/server/features/identity';
import { PAID_STATUSES } from '@/lib/access/post-access';
import { doneFlashCookie } from '@/server/platform/http/done-flash';
import { jsonAnswer } from '@/server/platform/http/form-endpoint';
import { clientIp } from '@/server/platform/http/request-origin';
import {
  type CheckoutOutcome,
  CheckoutRefused,
  checkoutOutcome,
  hasLiveProviderPlan,
  planStartedNotice,
  startCheckout,
} from './checkout';
import { retrieveCheckout, returnFromGuestCheckout, startGuestCheckout } from './guest-checkout';
import { isGuestSession } from './guest-records';
import { confirmPath } from '@/lib/confirm-path';
import { readCheckoutIntent } from './checkout-intent';
import { createPortalSession } from './portal';
import { PLAN_KEYS } from '@/lib/billing/plans';
import { readOfferCode } from '@/lib/billing/offer-code';
import { PURCHASE_METHODS, purchaseConfirmPath, purchaseRefSchema } from '@/lib/billing/purchase';
import { startPurchase } from './purchase-checkout';
import {
  TIP_AMOUNT_MESSAGE,
  TIP_POST_ID,
  tipAmountSchema,
  tipConfirmPath,
  tipMessageSchema,
} from '@/lib/billing/tip';
import { startTip } from './tip-checkout';

/**
 * The reader's billing endpoints: start a checkout from the final confirmation screen, open
 * the customer portal (SPEC §7), and the success page's question "is it recorded yet?".
 * Who pays and for what comes from the session and the catalogue, never from the request.
 */

const CHECKOUT_LIMIT = { name: 'billing-checkout', max: 20, windowMs: 60_000 };
const PORTAL_LIMIT = { name: 'billing-portal', max: 20, windowMs: 60_000 };
const STATUS_LIMIT = { name: 'billing-checkout-status', max: 120, windowMs: 60_000 };
// As many as a sign-up's per client address (account-flows.ts LIMITS.signUpIp).
const GUEST_CHECKOUT_LIMIT = { name: 'billing-guest-checkout', max: 20, windowMs: 60 * 60_000 };
const RETURN_LIMIT = { name: 'billing-checkout-return', max: 60, windowMs: 60_000 };

/** The page the reader came from; anything but a local path becomes '/'. */
const nextField = z
  .string()
  .optional()
  .catch(undefined)
  .transform((next) => safeNextPath(next, env().SITE_URL));

/** The offer's code confirmed on the screen; anything that cannot be one is dropped. */
const offerField = z.unknown().optional().transform(readOfferCode);

export const PORTAL_ERROR_MESSAGE =
  'プランの管理画面を開けませんでした。時間をおいてもう一度お試しください。';

const checkoutInput = z
  .object({
    plan: z.enum(PLAN_KEYS, { error: 'プランを選んでください。' }).optional(),
    purchase: purchaseRefSchema.optional(),
    method: z.enum(PURCHASE_METHODS, { error: 'お支払い方法を選んでください。' }).optional(),
    next: nextField,
    offer: offerField,
    // A tip (purchase=tip): its post, its amount and the message (src/lib/billing/tip.ts).
    post: z
      .string()
      .regex(TIP_POST_ID, { error: 'チップを送る記事を指定してください。' })
      .optional(),
    amount: tipAmountSchema.optional(),
    message: tipMessageSchema,
  })
  .superRefine((data, ctx) => {
    if (!data.plan && !data.purchase)
      ctx.addIssue({ code: 'custom', path: ['plan'], message: 'プランを選んでください。' });
    if (data.purchase && !data.method)
      ctx.addIssue({ code: 'custom', path: ['method'], message: 'お支払い方法を選んでください。' });
    if (data.purchase?.kind === 'tip' && !data.post)
      ctx.addIssue({
        code: 'custom',
        path: ['post'],
        message: 'チップを送る記事を指定してください。',
      });
    if (data.purchase?.kind === 'tip' && data.amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: TIP_AMOUNT_MESSAGE });
  });

/** Where a refused checkout's form was: the screen it was posted from. */
function checkoutFormPage(input: z.output<typeof checkoutInput> | null): string {
  if (input?.purchase?.kind === 'tip' && input.post)
    return tipConfirmPath(input.post, { amount: input.amount, message: input.message });
  if (input?.purchase?.kind === 'post') return purchaseConfirmPath(input.purchase.contentId);
  return input?.plan ? confirmPath(input.plan, input.next, input.offer) : '/service-plans';
}

/**
 * POST /api/billing/checkout → 303 to the provider's hosted checkout: a plan (form: plan, next,
 * offer), a single article (form: purchase=post:ID, method=card|konbini|paypay; its price is
 * the post's, purchase-checkout.ts) or a tip (form: purchase=tip, post, amount, message, method;
 * the amount validated here, tip-checkout.ts).
 */
export const handleCheckoutStart = endpoint(
  {
    name: 'billing-checkout',
    auth: 'user',
    rateLimit: CHECKOUT_LIMIT,
    input: checkoutInput,
    formPage: checkoutFormPage,
    messages: { signIn: 'お申し込みにはログインが必要です。' },
  },
  async ({ input, user, ip, request }) => {
    // A CheckoutRefused (409) is answered by the endpoint's error mapping.
    const db = await getDb();
    const { purchase, method } = input;
    const started =
      purchase?.kind === 'tip' && method && input.post && input.amount !== undefined
        ? await startTip(
            db,
            user,
            { contentId: input.post, amount: input.amount, message: input.message, method },
            ip,
          )
        : purchase?.kind === 'post' && method
          ? await startPurchase(db, user, purchase.contentId, method, ip)
          : await startCheckout(
              db,
              { id: user.id, email: user.email, name: user.name },
              input.plan!,
              ip,
              input.next,
              await checkoutSourceOf(db, request.headers, user.id),
              input.offer,
            );
    return new Response(null, {
      status: 303,
      headers: { location: started.url, 'cache-control': 'no-store' },
    });
  },
);

/** POST /api/create-customer-portal (JSON {customerId}) → {url} (SPEC §7). */
export const handleCreateCustomerPortal = endpoint(
  {
    name: 'create-customer-portal',
    auth: 'user',
    answers: 'json',
    rateLimit: PORTAL_LIMIT,
    input: z.object({ customerId: z.string().min(1).max(200) }),
    invalidMessage: PORTAL_ERROR_MESSAGE,
  },
  async ({ input, user, ip }) => {
    // A PortalForbidden (403) is answered by the endpoint's error mapping.
    const url = await createPortalSession(await getDb(), user.id, input.customerId, ip);
    return jsonAnswer(200, { url });
  },
);

/** GET /api/billing/checkout-status?session_id=… → {state, planName?} for the success page. */
export const handleCheckoutStatus = endpoint(
  {
    name: 'billing-checkout-status',
    method: 'GET',
    auth: 'user',
    answers: 'json',
    rateLimit: STATUS_LIMIT,
    input: z.object({ session_id: z.string().min(1).max(300) }),
  },
  async ({ input, user }) => {
    const outcome = await checkoutOutcome(await getDb(), user.id, input.session_id);
    const body =
      outcome.state === 'recorded'
        ? {
            state: outcome.state,
            planName: outcome.planName,
            status: outcome.status,
            trialEnd: outcome.trialEnd?.toISOString() ?? null,
          }
        : { state: outcome.state };
    return jsonAnswer(200, body);
  },
);

const seeOther = (location: string, ...setCookies: (string | undefined)[]) => {
  const headers = new Headers({
    location,
    'cache-control': 'private, no-store',
    'referrer-policy': 'no-referrer',
  });
  for (const cookie of setCookies) if (cookie) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
};

/**
 * POST /api/billing/guest-checkout (form: email, plan, next, offer, consent) → 303 to the
 * provider's checkout, for a visitor (guest-checkout.ts). The same answer for any address: no
 * account is looked up before paying. A signed-in reader is sent back to their own screen.
 */
export const handleGuestCheckoutStart = endpoint(
  {
    name: 'billing-guest-checkout',
    auth: 'optional',
    rateLimit: GUEST_CHECKOUT_LIMIT,
    input: z
      .object({
        email: emailField,
        plan: z.enum(PLAN_KEYS, { error: 'プランを選んでください。' }),
        next: nextField,
        offer: offerField,
        consent: z.unknown().optional(),
      })
      .superRefine((data, ctx) => {
        if (data.consent !== 'on' && data.consent !== true && data.consent !== 'true')
          ctx.addIssue({
            code: 'custom',
            path: ['consent'],
            message: 'お申し込み内容・利用規約・プライバシーポリシーへの同意が必要です。',
          });
      }),
    formPage: (input) =>
      input ? confirmPath(input.plan, input.next, input.offer) : '/service-plans',
  },
  async ({ input, user, ip, request }) => {
    if (user) return { ok: true, redirectTo: confirmPath(input.plan, input.next, input.offer) };
    // A CheckoutRefused (409: the plan or the offer) is answered by the endpoint's error mapping.
    const db = await getDb();
    const started = await startGuestCheckout(db, {
      email: input.email,
      plan: input.plan,
      next: input.next,
      offer: input.offer,
      ip,
      source: pathStartOf(request.headers),
    });
    return { ok: true, redirectTo: started.url, setCookies: [started.setCookie] };
  },
);

/** The success page of a checkout (what it shows while pending, or instead of the article). */
export const successPagePath = (sessionId: string, next: string) =>
  `/service-plans/checkout-success?session_id=${encodeURIComponent(sessionId)}${
    next === '/' ? '' : `&next=${encodeURIComponent(next)}`
  }`;

/** The access policy's own statuses: a plan awaiting authentication opens nothing yet. */
export const opensPaidItems = (status: string) =>
  (PAID_STATUSES as ReadonlySet<string>).has(status);

/**
 * GET /api/billing/checkout-return?session_id=…&next=… — the provider's success_url, for a
 * member's checkout and a visitor's alike. The checkout is applied here (checkoutOutcome,
 * guest-checkout.ts) and, once it opens paid items, the reader goes straight back to `next`,
 * where a one-time notice says the plan has started and until when its trial runs. Anything
 * else (no `next`, pending, a reversed second plan, an address whose owner must sign in) goes
 * to the success page, which says where things stand.
 */
export const handleCheckoutReturn = endpoint(
  {
    name: 'billing-checkout-return',
    method: 'GET',
    auth: 'optional',
    rateLimit: RETURN_LIMIT,
    input: z.object({ session_id: z.string().max(300).catch(''), next: nextField }),
    formPage: '/service-plans',
  },
  async ({ input, user, ip, request }) => {
    const { session_id: sessionId, next } = input;
    const page = successPagePath(sessionId, next);
    const db = await getDb();
    const session = await retrieveCheckout(db, sessionId);
    if (!session) return seeOther(page);
    let outcome: CheckoutOutcome | null = null;
    let setCookies: string[] = [];
    if (isGuestSession(session)) {
      const back = await returnFromGuestCheckout({ db, auth: await appAuth() }, session, {
        headers: request.headers,
        ip,
        viewer: user,
        next,
      });
      if (back.kind === 'claimed') ({ outcome, setCookies } = back);
    } else if (user) {
      outcome = await checkoutOutcome(db, user.id, sessionId);
    }
    if (outcome?.state === 'recorded' && opensPaidItems(outcome.status) && next !== '/')
      return seeOther(next, ...setCookies, doneFlashCookie(planStartedNotice(outcome)));
    return seeOther(page, ...setCookies);
  },
);

/**
 * GET /service-plans/start?intent=… — where the confirmation mail's link lands once it has
 * verified the address and signed the reader in. The reader confirmed the final terms on the
 * confirmation screen when they created the account, so a valid intent for this reader goes
 * straight to the provider's checkout (no money moves before the card form). Anything else — no
 * session, another reader, an expired or altered intent, a refusal — goes to a screen that asks.
 */
export async function handleCheckoutIntentStart(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  // better-auth sends a bad or expired confirmation link here with `error`: the login page says so.
  if (query.has('error')) return seeOther('/login?error=link');
  const token = query.get('intent');
  const user = await getUser();
  if (!user) return seeOther('/login');
  // Signed in by the mail's link: the sent page's note of that mail has served (sign-up-sent.ts).
  const done = clearSentMailCookie();
  const intent = readCheckoutIntent(token, user.email);
  if (!intent) return seeOther('/service-plans', done);
  const db = await getDb();
  if (await hasLiveProviderPlan(db, user.id)) return seeOther(intent.next, done);
  try {
    const started = await startCheckout(
      db,
      { id: user.id, email: user.email, name: user.name },
      intent.plan,
      clientIp(request.headers),
      intent.next,
      await checkoutSourceOf(db, request.headers, user.id),
      intent.offer,
    );
    return seeOther(started.url, done);
  } catch (error) {
    if (error instanceof CheckoutRefused)
      return seeOther(confirmPath(intent.plan, intent.next, intent.offer), done);
    throw error;
  }
}
