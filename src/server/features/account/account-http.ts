import 'server-only';
import { getDb } from '@/server/platform/db/client';
import { clientIp } from '@/server/platform/http/request-origin';
import {
  appAuth,
  type AppUser,
  endpoint,
  SENT_PAGE,
  userFromHeaders,
} from '@/server/features/identity';
import { type FormInput, jsonAnswer } from '@/server/platform/http/form-endpoint';
import {
  type FlowContext,
  type FlowDeps,
  type FlowResult,
  changeEmail,
  deleteAccount,
  requestPasswordReset,
  resetPassword,
  setPassword,
  signIn,
  signOut,
  signUp,
} from './account-flows';
import { env } from '@/env';
import { confirmPath } from '@/lib/confirm-path';
import { safeNextPath } from '@/lib/safe-next';
import { resendVerification } from './resend-verification';
import { editProfile } from './profile-flow';
import { finishProviderSignIn, startProviderSignIn } from './oidc-sign-in';
import { followSignInLink, requestSignInLink, switchToLinkAccount } from './sign-in-link';
import { isPlanKey } from '@/lib/billing/plans';
import { readOfferCode } from '@/lib/billing/offer-code';

/**
 * POST /api/account/{flow}, through the shared endpoint wrapper (src/server/features/identity/endpoint.ts):
 * a fetch from the site's forms gets JSON with a real status (400 with a message per field,
 * 401, 403, 413, 429 with Retry-After); a plain form post gets a 303, to the next page or back
 * to the form with its messages and what was typed (never a password) in a one-time cookie.
 */

type Input = FormInput;

/**
 * Where a refused account form goes back to without a same-site Referer: the screen it was on,
 * told by its hidden fields. A form on the final confirmation screen names its plan and `next`,
 * so it goes back there with both, whatever the browser's Referrer-Policy.
 */
function signUpFormPage(input: FormInput | null): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const next = safeNextPath(text(input?.next), env().SITE_URL);
  const plan = text(input?.plan);
  if (isPlanKey(plan)) return confirmPath(plan, next, readOfferCode(input?.offer));
  return next === '/' ? '/sign-up' : `/sign-up?next=${encodeURIComponent(next)}`;
}

/** Where a plain post without a same-site Referer is sent back to. */
const FORM_PAGES: Record<string, string | ((input: FormInput | null) => string)> = {
  'sign-up': signUpFormPage,
  'resend-verification': SENT_PAGE,
  'sign-in': '/login',
  'sign-in-link': '/login',
  'switch-account': '/login',
  'sign-out': '/',
  'forgot-password': '/account/forgot-password',
  'reset-password': '/account/reset-password',
  'change-email': '/account/change-email',
  'set-password': '/account',
  'edit-profile': '/account/edit',
  delete: '/account/delete',
};
type Flow = {
  signedIn: boolean;
  maxBytes: number;
  run: (
    deps: FlowDeps,
    input: Input,
    ctx: FlowContext,
    user: AppUser | null,
  ) => Promise<FlowResult>;
};

const KB = 1024;
const FLOWS: Record<string, Flow> = {
  'sign-up': { signedIn: false, maxBytes: 16 * KB, run: (d, i, c) => signUp(d, i, c) },
  'resend-verification': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, _i, c) => resendVerification(d, c),
  },
  'sign-in': { signedIn: false, maxBytes: 16 * KB, run: (d, i, c) => signIn(d, i, c) },
  'sign-in-link': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, i, c) => requestSignInLink(d, i, c),
  },
  'switch-account': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, i, c, u) => switchToLinkAccount(d, i, c, u),
  },
  'sign-out': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, _i, c, u) => signOut(d, c, u?.id ?? null),
  },
  'forgot-password': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, i, c) => requestPasswordReset(d, i, c),
  },
  'reset-password': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, i, c) => resetPassword(d, i, c),
  },
  'change-email': {
    signedIn: true,
    maxBytes: 16 * KB,
    run: (d, i, c, u) => changeEmail(d, i, c, u!),
  },
  'set-password': {
    signedIn: true,
    maxBytes: 16 * KB,
    run: (d, i, c, u) => setPassword(d, i, c, u!),
  },
  'edit-profile': {
    signedIn: true,
    maxBytes: 3 * 1024 * KB,
    run: (d, i, c, u) => editProfile(d, i, c, u!),
  },
  delete: { signedIn: true, maxBytes: 16 * KB, run: (d, i, c, u) => deleteAccount(d, i, c, u!) },
};

/** One endpoint per flow, built once: the flow's rule runs inside the shared wrapper. */
const ENDPOINTS = new Map(
  Object.entries(FLOWS).map(([name, flow]) => {
    const common = {
      name: `account:${name}`,
      maxBytes: flow.maxBytes,
      formPage: FORM_PAGES[name] ?? '/',
      messages: { signIn: 'ログインの有効期限が切れました。もう一度ログインしてください。' },
    };
    const deps = async () => ({ db: await getDb(), auth: await appAuth() });
    const run = endpoint(
      { ...common, auth: flow.signedIn ? 'user' : 'optional' },
      async ({ input, user, request, ip }) =>
        flow.run(await deps(), input, { headers: request.headers, ip }, user),
    );
    return [name, run] as const;
  }),
);

export async function handleAccountPost(request: Request, flowName: string): Promise<Response> {
  const run = ENDPOINTS.get(flowName);
  if (!run) return jsonAnswer(404, { ok: false, message: 'ページが見つかりません。' });
  return run(request);
}

/**
 * GET /api/account/sign-in-link?token=…&next=…: the link in the mail. Answers a redirect, with
 * the session cookie when the link was good (or to the switch page, when the browser is signed
 * in with another address); the token must not leak on through a Referer.
 */
export async function handleSignInLinkFollow(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const followed = await followSignInLink(
    { db: await getDb(), auth: await appAuth() },
    { token: query.get('token') ?? undefined, next: query.get('next') ?? undefined },
    { headers: request.headers, ip: clientIp(request.headers) },
    await userFromHeaders(request.headers),
  );
  const headers = new Headers({
    location: followed.redirectTo,
    'cache-control': 'private, no-store',
    'referrer-policy': 'no-referrer',
  });
  if (followed.ok) for (const cookie of followed.setCookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/** One endpoint per provider name, built on first use: POST /api/account/sign-in-with/{provider}. */
// module-state: handlers built from constants, the same in every copy of the module.
const PROVIDER_ENDPOINTS = new Map<string, (request: Request) => Promise<Response>>();

/** The provider buttons on /login: a 303 to the provider, with better-auth's state cookie. */
export async function handleProviderStart(request: Request, provider: string): Promise<Response> {
  if (!/^[a-z]{1,20}$/.test(provider))
    return jsonAnswer(404, { ok: false, message: 'ページが見つかりません。' });
  let run = PROVIDER_ENDPOINTS.get(provider);
  if (!run) {
    run = endpoint(
      { name: `account:sign-in-with:${provider}`, maxBytes: 16 * KB, formPage: '/login' },
      async ({ input, request: req, ip }) =>
        startProviderSignIn({ db: await getDb(), auth: await appAuth() }, provider, input, {
          headers: req.headers,
          ip,
        }),
    );
    PROVIDER_ENDPOINTS.set(provider, run);
  }
  return run(request);
}

/** GET /api/auth/callback/{provider}: better-auth finishes the sign-in; we limit and audit. */
export async function handleProviderCallback(
  request: Request,
  provider: string,
): Promise<Response> {
  return finishProviderSignIn({ db: await getDb(), auth: await appAuth() }, provider, request, {
    ip: clientIp(request.headers),
  });
}
