import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { runAdminCommand } from '@/server/features/admin/commands';
import { signIn, signOut } from '@/server/features/account/account-flows';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { session, user } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { appAuth } from './app-auth';
import { userFromHeaders } from './session-user';

/**
 * Who a request's session is, as every page, route and action asks it: read from the database
 * on every request, so that what ends or narrows a session takes effect on the very next one.
 * Each change here is made the way another instance (or the CLI's process) makes it: straight in
 * the database, with nothing told to this process. A session remembered in the process, however
 * briefly, fails these tests (docs/decisions/057-staff-render-queries.md).
 */

const PASSWORD = 'kumo-no-ue-no-sora';

describe('userFromHeaders', () => {
  let database: Database;
  let ip = 0;
  const run = (name: string, args: Record<string, string>) =>
    runAdminCommand({ database, actor: 'cli:test' }, name, args);
  /** A fresh session's cookie header for the account (signing in twice: two sessions). */
  const sessionOf = async (email: string): Promise<string> => {
    const result = await signIn(
      { db: database.db, auth: await appAuth() },
      { email, password: PASSWORD },
      { headers: new Headers(), ip: `192.0.2.${++ip}` },
    );
    if (!result.ok) throw new Error(`sign-in failed for ${email}`);
    return result.setCookies!.map((c) => c.split(';')[0]).join('; ');
  };
  const whoIs = (cookie: string) => userFromHeaders(new Headers({ cookie }));
  const idOf = async (email: string): Promise<string> => {
    const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    return row!.id;
  };
  const tokenOf = (cookie: string) =>
    decodeURIComponent(cookie.split('=')[1]!.split(';')[0]!).split('.')[0]!;

  beforeAll(async () => {
    vi.stubEnv('APP_SECRET', 's'.repeat(40));
    database = await createTestDatabase();
    useDatabase(database);
    for (const [name, role] of [
      ['admin', 'admin'],
      ['editor', 'editor'],
      ['reader', 'member'],
      ['leaver', 'member'],
    ]) {
      await run('create-user', { email: `${name}@example.jp`, password: PASSWORD, role: role! });
    }
  });
  afterAll(async () => {
    useDatabase(undefined);
    await database.close();
    vi.unstubAllEnvs();
  });

  it('answers the session user with the role the database gives now', async () => {
    const cookie = await sessionOf('admin@example.jp');
    expect(await whoIs(cookie)).toMatchObject({ email: 'admin@example.jp', role: 'admin' });
    // Demoted by the CLI (its own process): the next request is a member's.
    await run('set-role', { email: 'admin@example.jp', role: 'member' });
    expect(await whoIs(cookie)).toMatchObject({ role: 'member' });
    // And back, then demoted by another instance's write.
    await run('set-role', { email: 'admin@example.jp', role: 'admin' });
    expect(await whoIs(cookie)).toMatchObject({ role: 'admin' });
    await database.db
      .update(user)
      .set({ role: 'member' })
      .where(eq(user.email, 'admin@example.jp'));
    expect(await whoIs(cookie)).toMatchObject({ role: 'member' });
  });

  it('answers nobody on the next request once the session is revoked anywhere', async () => {
    const cookie = await sessionOf('editor@example.jp');
    const other = await sessionOf('editor@example.jp');
    expect(await whoIs(cookie)).toMatchObject({ role: 'editor' });
    expect(await whoIs(other)).toMatchObject({ role: 'editor' });
    // Revoked on another instance (its row deleted there): this one answers nobody at once.
    await database.db.delete(session).where(eq(session.token, tokenOf(cookie)));
    expect(await whoIs(cookie)).toBeNull();
    // The other session stays, until "sign out everywhere" (or a password reset) ends them all.
    expect(await whoIs(other)).toMatchObject({ role: 'editor' });
    await database.db.delete(session).where(eq(session.userId, await idOf('editor@example.jp')));
    expect(await whoIs(other)).toBeNull();
  });

  it('reads the session and its user in one statement', async () => {
    const cookie = await sessionOf('reader@example.jp');
    await whoIs(cookie); // better-auth's first use of the database prepares its own
    // The embedded database in tests: drizzle sends each statement through its client.query.
    const client = (database.db as unknown as { $client: { query: () => unknown } }).$client;
    const queries = vi.spyOn(client, 'query');
    try {
      expect(await whoIs(cookie)).toMatchObject({ email: 'reader@example.jp' });
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
  });

  it('finds the session among other cookies, and nobody without one', async () => {
    const cookie = await sessionOf('reader@example.jp');
    expect(await whoIs(`_ga=GA1.2.3; ${cookie}; bench_unknown=1`)).toMatchObject({
      email: 'reader@example.jp',
    });
    expect(await whoIs('_ga=GA1.2.3; bench_unknown=1')).toBeNull();
    expect(await userFromHeaders(new Headers())).toBeNull();
  });

  it('answers nobody once the session has expired', async () => {
    const cookie = await sessionOf('reader@example.jp');
    expect(await whoIs(cookie)).toMatchObject({ email: 'reader@example.jp' });
    await database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, tokenOf(cookie)));
    expect(await whoIs(cookie)).toBeNull();
  });

  it('answers nobody after signing out, and after the account is deleted', async () => {
    const cookie = await sessionOf('reader@example.jp');
    const id = await idOf('reader@example.jp');
    expect(await whoIs(cookie)).toMatchObject({ id });
    await signOut(
      { db: database.db, auth: await appAuth() },
      { headers: new Headers({ cookie }), ip: '192.0.2.200' },
      id,
    );
    expect(await whoIs(cookie)).toBeNull();

    const leaver = await sessionOf('leaver@example.jp');
    expect(await whoIs(leaver)).toMatchObject({ email: 'leaver@example.jp' });
    // Deleted on another instance: the cascade takes the sessions with the account.
    await database.db.delete(user).where(eq(user.email, 'leaver@example.jp'));
    expect(await whoIs(leaver)).toBeNull();
  });

  it('answers a fresh session without better-auth, and leaves it every other case', async () => {
    const cookie = await sessionOf('editor@example.jp');
    const auth = await appAuth();
    const endpoint = vi.spyOn(auth.api, 'getSession');
    try {
      expect(await whoIs(cookie)).toMatchObject({ email: 'editor@example.jp' });
      expect(endpoint).not.toHaveBeenCalled();
      // A forged signature, a cookie of another secret, an altered token: better-auth's to
      // refuse, and it does.
      const [name, value] = [cookie.split('=')[0]!, decodeURIComponent(cookie.split('=')[1]!)];
      const forged = (v: string) => `${name}=${encodeURIComponent(v)}`;
      const token = value.split('.')[0]!;
      for (const attempt of [
        forged(`${token}.${'A'.repeat(43)}=`),
        forged(`${token}x.${value.split('.')[1]}`),
        forged(`${token}.${value.split('.')[1]!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`),
        forged(token),
        `${forged(`${token}.${'A'.repeat(43)}=`)}; ${cookie}`, // the first of a name counts
      ]) {
        expect(await whoIs(attempt)).toBeNull();
      }
      expect(endpoint).toHaveBeenCalledTimes(5);
    } finally {
      endpoint.mockRestore();
    }
  });

  it('leaves a session due for renewal to better-auth, which renews it', async () => {
    const cookie = await sessionOf('editor@example.jp');
    const { expiresIn, updateAge } = (await (await appAuth()).$context).sessionConfig;
    // Signed in a day and a minute ago: renewed on its next request (a write and a cookie).
    const due = new Date(Date.now() + (expiresIn - updateAge - 60) * 1000);
    await database.db
      .update(session)
      .set({ expiresAt: due })
      .where(eq(session.token, tokenOf(cookie)));
    expect(await whoIs(cookie)).toMatchObject({ email: 'editor@example.jp' });
    const [row] = await database.db
      .select({ expiresAt: session.expiresAt })
      .from(session)
      .where(eq(session.token, tokenOf(cookie)));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + (expiresIn - 60) * 1000);
  });
});
