import 'server-only';
import { type BetterAuthPlugin, betterAuth } from 'better-auth';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { genericOAuth, magicLink } from 'better-auth/plugins';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { AsyncLocalStorage } from 'node:async_hooks';
import { singleton } from '@/lib/singleton';
import { z } from '@/lib/zod';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { recordOwnAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { AUTH_COOKIE_PREFIX } from '@/server/platform/http/cookies';
import * as schema from '@/server/platform/db/schema';
import { sendMail } from '@/server/platform/mail/mailer';
import { ACCOUNT_MAIL_LIMITS, sendCappedMail } from './account-mail';
import { removeResetLinks, removeVerificationLinks } from '@/server/platform/mail/outbox';
import { mails } from '@/server/platform/mail/templates';
import { createProfiles } from '@/server/features/profiles';
import { type OidcSettings, genericOAuthConfigs, oidcSettingsFromEnv } from './oidc-providers';
import { signUpConsent } from './unfinished-sign-up';

/**
 * better-auth on our own database (docs/decisions/003-identity.md): e-mail and password with the
 * library's password hashing (scrypt), sessions in the database, verification, reset, e-mail
 * change and deletion. The app's own endpoints (src/server/features/account/account-flows.ts) call it
 * server-side after validating, rate limiting and auditing; over HTTP only the e-mail
 * verification link is exposed (src/app/api/auth). Built per database so tests can use their own.
 */

/**
 * The confirmation link of a new account (and of an e-mail change) works for an hour: it signs
 * its reader in, so it lives no longer than a reset link (docs/decisions/039-reader-path.md).
 * The sent page resends it, and signing in with the password mails a fresh one.
 */
export const EMAIL_VERIFICATION_SECONDS = 60 * 60;
export const RESET_PASSWORD_SECONDS = 60 * 60;
export const SESSION_SECONDS = 30 * 24 * 60 * 60;
/** A sign-in link (src/server/features/account/sign-in-link.ts) works once, for this long. */
export const SIGN_IN_LINK_SECONDS = 15 * 60;
/** Where a sign-in link points: our endpoint, which rate limits and audits (not better-auth's). */
export const SIGN_IN_LINK_PATH = '/api/account/sign-in-link';

/** The URL a sign-in link mail carries: the token, and the page to return to (checked on use). */
export function signInLinkUrl(baseURL: string, token: string, next?: string): string {
  const url = new URL(SIGN_IN_LINK_PATH, baseURL);
  url.searchParams.set('token', token);
  if (next && next !== '/') url.searchParams.set('next', next);
  return url.toString();
}

export function createAuth(
  db: Db,
  options: {
    secret: string;
    baseURL?: string;
    /** Sign-in with LINE and Google: the environment's unless a test gives its own. */
    oidc?: OidcSettings;
  },
) {
  const baseURL = options.baseURL ?? env().SITE_URL;
  const oidc = genericOAuthConfigs(options.oidc ?? oidcSettingsFromEnv());
  return betterAuth({
    appName: env().SITE_NAME,
    baseURL,
    secret: options.secret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
      },
    }),
    // Expected failures (a wrong password) are ours to audit, not to log as warnings.
    logger: { level: 'error' },
    // Our own limiter (src/server/platform/rate-limit) sits in front of every flow, shared by instances.
    rateLimit: { enabled: false },
    session: { expiresIn: SESSION_SECONDS, updateAge: 24 * 60 * 60 },
    // Reset tokens are kept as hashes: a copy of the table cannot be used to take over accounts.
    verification: { storeIdentifier: 'hashed' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      requireEmailVerification: true,
      resetPasswordTokenExpiresIn: RESET_PASSWORD_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const url = `${baseURL}/account/reset-password?token=${encodeURIComponent(token)}`;
        await sendCappedMail(
          db,
          ACCOUNT_MAIL_LIMITS.resetPassword,
          mails.resetPassword(user.email, user.name, {
            url,
            userId: user.id,
            lifetimeSeconds: RESET_PASSWORD_SECONDS,
          }),
        );
      },
      // The same answer as a new sign-up; the owner of the address is told instead.
      onExistingUserSignUp: async ({ user }) => {
        await sendCappedMail(
          db,
          ACCOUNT_MAIL_LIMITS.alreadyRegistered,
          mails.alreadyRegistered(
            user.email,
            `${baseURL}/login`,
            `${baseURL}/account/forgot-password`,
          ),
        );
      },
      onPasswordReset: async ({ user }) => {
        // The kept copies of the reset links must not outlive their use.
        await removeResetLinks(db, user.id);
        await recordOwnAction(db, user.id, 'password-reset');
        await sendMail(db, mails.passwordChanged(user.email, user.name));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      // Following the link signs the reader in, once: better-auth signs in only while the address
      // is unverified, so a second click of the same link lands signed out.
      autoSignInAfterVerification: true,
      expiresIn: EMAIL_VERIFICATION_SECONDS,
      // Called for a new account (not yet verified) and for an e-mail change (the account is
      // verified; `user.email` is then the new address).
      sendVerificationEmail: async ({ user, url }) => {
        const link = { url, userId: user.id, lifetimeSeconds: EMAIL_VERIFICATION_SECONDS };
        await sendCappedMail(
          db,
          ACCOUNT_MAIL_LIMITS.verification,
          user.emailVerified
            ? mails.changeEmailVerify(user.email, user.name, link)
            : mails.verifyEmail(user.email, user.name, link),
        );
      },
      // Also called when an e-mail change completes (`user.email` is then the new address).
      afterEmailVerification: async (user) => {
        // A sign-up cut before its profile records (unfinished-sign-up.ts) is made whole here,
        // with the consent its form required; for any other account this changes nothing.
        await createProfiles(db, {
          userId: user.id,
          email: user.email,
          displayName: user.name,
          consent: { termsAcceptedAt: user.createdAt },
        });
        await removeVerificationLinks(db, user.id);
        await recordOwnAction(db, user.id, 'email-verified');
      },
    },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'member', input: false },
      },
      changeEmail: { enabled: true },
      deleteUser: { enabled: true },
    },
    databaseHooks: {
      user: {
        create: {
          // Both profile records are created with the user (SPEC §3: without them the user is null).
          after: async (user) => {
            const consent = signUpConsent();
            // The newsletter's opt-in is written with the records (one transaction, with its
            // consent log row): a kill between them would lose it on the reader's retry.
            await createProfiles(db, {
              userId: user.id,
              email: user.email,
              displayName: user.name,
              consent: consent && {
                termsAcceptedAt: consent.termsAcceptedAt,
                newsletter: consent.newsletter
                  ? { page: consent.page, ip: consent.ip, userAgent: consent.userAgent }
                  : undefined,
              },
            });
            if (consent?.newsletter) {
              await recordOwnAction(db, user.id, 'newsletter-consent', {
                ip: consent.ip ?? null,
                detail: { newsletter: true, method: 'sign-up' },
              });
            }
          },
        },
        update: {
          // An e-mail change completes when the link is followed: the private record follows.
          after: async (user) => {
            const [profile] = await db
              .select({ email: schema.userPrivateProfiles.email })
              .from(schema.userPrivateProfiles)
              .where(eq(schema.userPrivateProfiles.userId, user.id));
            if (profile && profile.email !== user.email) {
              await db
                .update(schema.userPrivateProfiles)
                .set({ email: user.email, updatedAt: new Date() })
                .where(eq(schema.userPrivateProfiles.userId, user.id));
              await recordOwnAction(db, user.id, 'email-changed');
            }
          },
        },
      },
    },
    // A provider's sign-in that fails before its own error page is known (a lost state cookie).
    onAPIError: { errorURL: `${baseURL}/login?provider=error` },
    account: {
      // A provider's account joins an existing one only when the provider says the address is
      // verified (Google's email_verified; never LINE's) and ours was verified too.
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true },
    },
    plugins: [
      ...(oidc.length > 0 ? [genericOAuth({ config: oidc })] : []),
      unconfirmedSessions,
      // Sign-in by e-mail link, called server-side only (sign-in-link.ts): never creates an
      // account, and its tokens are stored hashed like every verification value above.
      magicLink({
        expiresIn: SIGN_IN_LINK_SECONDS,
        disableSignUp: true,
        // No mail leaves from here: the token goes back to whoever asked for it (issueSignInToken),
        // which decides what, if anything, to mail.
        sendMagicLink: ({ token, metadata }) => {
          const held = heldSignIns.getStore();
          if (!held) throw new Error('a sign-in token is asked for through issueSignInToken');
          const next = typeof metadata?.next === 'string' ? metadata.next : undefined;
          held.issued = { token, url: signInLinkUrl(baseURL, token, next) };
        },
      }),
    ],
    advanced: {
      useSecureCookies: baseURL.startsWith('https:'),
      cookiePrefix: AUTH_COOKIE_PREFIX,
      // A session is read with its user in one query (drizzle's relations, schema/identity.ts),
      // not two: every page a signed-in reader or staff member is rendered asks it afresh
      // (docs/decisions/057-staff-render-queries.md).
      database: { joins: true },
    },
  });
}

/**
 * A session for an account whose address is not confirmed yet: the one a paid guest checkout
 * made, for the browser that paid (src/server/features/billing/guest-checkout.ts). Server-only
 * (no route reaches it). The session and its cookie are better-auth's own; the address stays
 * unconfirmed until the mailed sign-in link is followed, which also ends this session (the
 * library strips what an unconfirmed account held once its mailbox proves itself). A confirmed
 * account is refused: only its mailbox or its password signs it in.
 */
const unconfirmedSessions = {
  id: 'unconfirmed-session',
  endpoints: {
    signInUnconfirmed: createAuthEndpoint.serverOnly(
      { method: 'POST', body: z.object({ userId: z.string().min(1).max(200) }) },
      async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user || user.emailVerified) throw new APIError('FORBIDDEN');
        const session = await ctx.context.internalAdapter.createSession(user.id);
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ userId: user.id });
      },
    ),
  },
} satisfies BetterAuthPlugin;

export type Auth = ReturnType<typeof createAuth>;

/**
 * An account made from an address alone (a paid guest checkout): no password, the address not
 * confirmed, its profiles made by the user hook with the consent given (withSignUpConsent).
 */
export async function createAccountWithoutPassword(
  auth: Auth,
  input: { email: string; name: string; method: string },
): Promise<{ id: string; email: string; name: string }> {
  const context = await auth.$context;
  const created = await context.internalAdapter.createUser(
    { email: input.email, name: input.name, emailVerified: false },
    { method: input.method },
  );
  return { id: created.id, email: created.email, name: created.name };
}

/** Signs a browser in to an unconfirmed account (see unconfirmedSessions); its Set-Cookie headers. */
export async function signInUnconfirmed(
  auth: Auth,
  userId: string,
  headers: Headers,
): Promise<string[]> {
  const answer = await auth.api.signInUnconfirmed({
    body: { userId },
    headers,
    returnHeaders: true,
  });
  return answer.headers.getSetCookie();
}

type SignInToken = { token: string; url: string };
const heldSignIns = singleton(
  'held-sign-ins',
  () => new AsyncLocalStorage<{ issued?: SignInToken }>(),
);

/**
 * Makes and keeps a sign-in token for the address (better-auth's magic link: hashed, 15 minutes,
 * never making an account) and answers it with its link, mailing nothing. The token is made
 * whether or not an account uses the address, so asking costs the same for any address.
 */
export async function issueSignInToken(
  auth: Auth,
  email: string,
  headers: Headers,
  next?: string,
): Promise<SignInToken> {
  const held: { issued?: SignInToken } = {};
  await heldSignIns.run(held, () =>
    auth.api.signInMagicLink({ body: { email, metadata: { next } }, headers }),
  );
  if (!held.issued) throw new Error('better-auth made no sign-in token');
  return held.issued;
}

/**
 * Signs a reader in without mailing them a link, for a flow whose own mailed link already
 * proved the address (the footer's newsletter confirmation, src/server/features/newsletter): better-auth's
 * magic link is made and followed at once, so the session, its cookie and the address marked
 * verified are the library's. Answers the Set-Cookie headers.
 */
export async function signInWithoutMail(
  auth: Auth,
  email: string,
  headers: Headers,
): Promise<string[]> {
  const { token } = await issueSignInToken(auth, email, headers);
  const answer = await auth.api.magicLinkVerify({ query: { token }, headers, returnHeaders: true });
  return answer.headers.getSetCookie();
}
