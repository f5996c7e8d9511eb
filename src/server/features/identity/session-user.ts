import 'server-only';
import { getDb } from '@/server/platform/db/client';
import { appAuth } from './app-auth';
import { freshSessionUser } from './fresh-session';
import { ROLES, type Role } from '@/lib/identity/roles';

/**
 * The user of a request's session, checked against the database. Kept apart from session.ts
 * (which redirects through the framework's navigation module) so that the front server can
 * ask it outside a render.
 */

export type AppUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  emailVerified: boolean;
};

/** Who is signed in on a request: userFromHeaders, or a test's stand-in for it. */
export type ViewerLookup = (requestHeaders: Headers) => Promise<AppUser | null>;

/** A route's options: tests say who is signed in (userFromHeaders unless they do). */
export type ViewerOption = { viewer?: ViewerLookup };

const asRole = (value: unknown): Role =>
  (ROLES as readonly unknown[]).includes(value) ? (value as Role) : 'member';

/**
 * Whether a Cookie header may carry a session: one whose text has no session cookie's name in
 * it (and nothing percent-encoded a parser might decode into one) carries none, and better-auth
 * would answer nobody for it. A visitor with other cookies (one the page cache does not know,
 * an analytics cookie) is then answered without the library's endpoint machinery, which cost
 * about 0.5 ms of every such render (docs/decisions/057-staff-render-queries.md).
 */
const mayCarrySession = (cookie: string | null): cookie is string =>
  cookie !== null && (cookie.includes('session_token') || cookie.includes('%'));

/** The signed-in user of a request (route handlers pass request.headers). */
export async function userFromHeaders(requestHeaders: Headers): Promise<AppUser | null> {
  const cookie = requestHeaders.get('cookie');
  if (!mayCarrySession(cookie)) return null;
  const auth = await appAuth();
  // A fresh session in one prepared statement; anything else is better-auth's to answer.
  const user =
    (await freshSessionUser(await getDb(), auth, cookie)) ??
    (await auth.api.getSession({ headers: requestHeaders }))?.user;
  if (!user) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: asRole((user as { role?: unknown }).role),
    emailVerified: user.emailVerified,
  };
}
