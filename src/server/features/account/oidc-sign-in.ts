import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { recordAudit, recordOwnAction } from '@/server/platform/audit/audit-log';
import { session as sessionTable } from '@/server/platform/db/schema';
import { AUTH_COOKIE_PREFIX } from '@/server/platform/http/cookies';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { consumeOrRefuse } from '@/server/platform/forms/submit';
import { type FlowContext, type FlowDeps, type FlowResult, LIMITS } from './account-flows';
import { isOidcProviderId, withSignUpConsent } from '@/server/features/identity';

/**
 * Sign-in with an OpenID Connect provider (oidc-providers.ts), in two requests:
 * `POST /api/account/sign-in-with/{provider}` (a plain form on /login) sends the reader to the
 * provider, and the provider sends them back to `GET /api/auth/callback/{provider}`, where
 * better-auth checks state, PKCE and the ID token and starts the session. Around it: the sign-in
 * limits, the consent of a reader whose account the sign-in creates, and the audit.
 */

/** Where a failed provider sign-in lands: better-auth adds `error=…`. */
export function providerErrorPage(provider: string, next: string): string {
  const path = `/login?provider=${encodeURIComponent(provider)}`;
  return next === '/' ? path : `${path}&next=${encodeURIComponent(next)}`;
}

const UNKNOWN_PROVIDER: FlowResult = {
  ok: false,
  status: 404,
  message: 'このログイン方法は利用できません。',
};

/** Starts the provider's sign-in: the answer redirects to the provider with the state cookie. */
export async function startProviderSignIn(
  deps: FlowDeps,
  provider: string,
  input: unknown,
  ctx: FlowContext,
): Promise<FlowResult> {
  if (!isOidcProviderId(provider)) return UNKNOWN_PROVIDER;
  const raw = (typeof input === 'object' && input !== null ? input : {}) as { next?: unknown };
  const next = safeNextPath(raw.next, env().SITE_URL);
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.signInIp, subject: addressKey(ctx.ip) },
  ]);
  if (blocked) return blocked;
  const context = await deps.auth.$context;
  if (!context.socialProviders.some((p) => p.id === provider)) return UNKNOWN_PROVIDER;
  const { headers, response } = await deps.auth.api.signInSocial({
    body: {
      provider,
      callbackURL: next,
      errorCallbackURL: providerErrorPage(provider, next),
      disableRedirect: true,
    },
    headers: ctx.headers,
    returnHeaders: true,
  });
  if (!response.url) return UNKNOWN_PROVIDER;
  return { ok: true, redirectTo: response.url, setCookies: headers.getSetCookie() };
}

const SESSION_COOKIE = `${AUTH_COOKIE_PREFIX}.session_token=`;

/** The session a response starts: the token before the signature in its session cookie. */
function sessionTokenOf(response: Response): string | null {
  for (const cookie of response.headers.getSetCookie()) {
    const secure = cookie.startsWith('__Secure-') ? cookie.slice('__Secure-'.length) : cookie;
    if (!secure.startsWith(SESSION_COOKIE)) continue;
    const value = decodeURIComponent(secure.slice(SESSION_COOKIE.length).split(';', 1)[0] ?? '');
    const token = value.split('.', 1)[0];
    if (token) return token;
  }
  return null;
}

/**
 * The provider's callback. A reader the sign-in creates an account for gave their consent by
 * choosing the provider beside the statement on /login (the profile hook records it).
 */
export async function finishProviderSignIn(
  deps: FlowDeps,
  provider: string,
  request: Request,
  ctx: Pick<FlowContext, 'ip'>,
): Promise<Response> {
  if (!isOidcProviderId(provider)) return new Response(null, { status: 404 });
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.signInIp, subject: addressKey(ctx.ip) },
  ]);
  if (blocked)
    return new Response(null, {
      status: 303,
      headers: { location: `/login?provider=${provider}&error=rate_limited` },
    });
  const response = await withSignUpConsent({ termsAcceptedAt: new Date(), newsletter: false }, () =>
    deps.auth.handler(request),
  );
  const token = sessionTokenOf(response);
  const [started] = token
    ? await deps.db
        .select({ userId: sessionTable.userId })
        .from(sessionTable)
        .where(eq(sessionTable.token, token))
    : [];
  if (started) {
    await recordOwnAction(deps.db, started.userId, 'sign-in', {
      ip: ctx.ip,
      detail: { method: provider },
    });
  } else {
    let reason = 'error';
    try {
      reason =
        new URL(response.headers.get('location') ?? '', env().SITE_URL).searchParams.get('error') ??
        reason;
    } catch {
      /* no location */
    }
    await recordAudit(deps.db, {
      actor: 'anonymous',
      action: 'sign-in-failed',
      target: null,
      ip: ctx.ip,
      detail: { method: provider, reason: reason.slice(0, 100) },
    });
  }
  return response;
}
