import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { type AuthState, SIGNED_OUT_AUTH_STATE, deriveAuthState } from '@/lib/auth-state';
import { notePersonal } from '@/server/features/audience';
import { getDb } from '@/server/platform/db/client';
import { loadIdentity } from '@/server/features/profiles';
import { appAuth } from './app-auth';
import { type AppUser, userFromHeaders } from './session-user';
import { type Role, STAFF_ROLES } from '@/lib/identity/roles';

/**
 * Who is asking, from the session cookie, checked against the database on every request.
 * docs/decisions/000-design-baseline.md "Conventions": call these in every page, route handler and
 * action that needs them, never only in a layout or the proxy.
 */

/**
 * next/navigation, loaded when a page needs it: plain Node (the compiled server and CLI, a test's
 * child process) cannot load it, and reaches this module through the identity feature's entry.
 */
const navigation = () => import('next/navigation');

/**
 * The session's user of the page being rendered, once per request, for the access policy
 * (src/server/features/access/current-viewer.ts), which notes the audience it renders for. Anything
 * else calls getUser.
 */
export const sessionUser = cache(async (): Promise<AppUser | null> =>
  userFromHeaders(await headers()),
);

/**
 * The signed-in user of the page being rendered, or null. A page that shows or uses who the
 * user is is theirs alone: it is marked personal, so the page cache never keeps it.
 */
export const getUser = cache(async (): Promise<AppUser | null> => {
  const user = await sessionUser();
  if (user) notePersonal();
  return user;
});

/** The signed-in user, or a redirect to /login that comes back to `returnTo` afterwards. */
export async function requireUser(returnTo: string): Promise<AppUser> {
  const user = await getUser();
  if (!user) {
    const next = safeNextPath(returnTo, env().SITE_URL);
    return (await navigation()).redirect(`/login?next=${encodeURIComponent(next)}`);
  }
  return user;
}

/** A staff page: anyone without one of the roles sees the 404 page (nothing to discover). */
export async function requireRole(...roles: Role[]): Promise<AppUser> {
  const user = await getUser();
  if (!user || !roles.includes(user.role)) return (await navigation()).notFound();
  return user;
}

/** The admin-only staff pages (users, audit log, API keys, offers, transfer). */
export const requireAdmin = (): Promise<AppUser> => requireRole('admin');

/** The staff pages editors share with admins (media, mail, contact messages, analytics). */
export const requireStaff = (): Promise<AppUser> => requireRole('editor', 'admin');

export function isStaff(user: AppUser | null): boolean {
  return !!user && STAFF_ROLES.includes(user.role);
}

/** SPEC §4's auth state for a user id (null: signed out). */
export async function authStateFor(userId: string | null): Promise<AuthState> {
  if (!userId) return SIGNED_OUT_AUTH_STATE;
  return deriveAuthState(await loadIdentity(await getDb(), userId));
}

/** The auth state of the page being rendered. Once per request. */
export const getAuthState = cache(async (): Promise<AuthState> => {
  const user = await getUser();
  return authStateFor(user?.id ?? null);
});

/**
 * Whether the account can sign in with a password: one made from an address alone (a paid
 * checkout, the footer's newsletter) has none until the reader sets one on the account page.
 */
export async function hasPassword(userId: string): Promise<boolean> {
  const context = await (await appAuth()).$context;
  return !!(await context.internalAdapter.findCredentialAccount(userId))?.password;
}
