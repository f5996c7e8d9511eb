import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseCookies } from 'better-call';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { preparedPerDatabase } from '@/server/platform/db/prepared';
import { session, user } from '@/server/platform/db/schema';
import type { Auth } from './auth';

/**
 * A session read without better-auth's endpoint, for the one answer that needs no write: a
 * signed session cookie whose session is in the database, unexpired, and not yet due for
 * renewal. That read is what every staff render and signed-in reader's render asks, and the
 * endpoint's machinery around it (its context, cookie handling, hooks, the relational query
 * built anew) cost about 1 ms of CPU a request beside 0.45 ms for the statement itself
 * (docs/decisions/057-staff-render-queries.md, amendment of 2026-11-30). Everything else (no
 * or a forged cookie, an unknown, expired or renewable session) is `undefined`: the caller asks
 * better-auth, which answers it as before, deleting and renewing as it does. The database is
 * still asked on every request: nothing of a session is kept in the process.
 */
export type FreshSessionUser = {
  id: string;
  email: string;
  name: string;
  role: string;
  emailVerified: boolean;
};

/** The session's row with its user's columns the site reads: one statement. */
const sessionRow = preparedPerDatabase('fresh-session-user', (db) =>
  db
    .select({
      expiresAt: session.expiresAt,
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      emailVerified: user.emailVerified,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sql.placeholder('token')))
    .limit(1)
    .prepare('fresh_session_user'),
);

/**
 * The token of a signed cookie's value if its signature is the secret's, checked as better-call
 * checks it (`getSignedCookie`: the value after the last dot is a 44-character base64 HMAC-SHA256
 * of what precedes it); else null.
 */
export function verifiedToken(value: string | undefined, secret: string): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  let given: Buffer;
  try {
    given = Buffer.from(atob(signature), 'latin1');
  } catch {
    return null; // not base64: better-call's verify answers false
  }
  const expected = createHmac('sha256', secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

export async function freshSessionUser(
  db: Db,
  auth: Auth,
  cookieHeader: string,
): Promise<FreshSessionUser | undefined> {
  const context = await auth.$context;
  const cookies = parseCookies(cookieHeader);
  const token = verifiedToken(cookies.get(context.authCookies.sessionToken.name), context.secret);
  if (!token) return undefined;
  const [row] = await sessionRow(db).execute({ token });
  if (!row) return undefined;
  const now = Date.now();
  const { expiresIn, updateAge } = context.sessionConfig;
  const expiresAt = row.expiresAt.getTime();
  // better-auth renews a session (a write, and a new cookie) once it is updateAge old.
  if (expiresAt <= now || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
  const { expiresAt: _, ...found } = row;
  return found;
}
