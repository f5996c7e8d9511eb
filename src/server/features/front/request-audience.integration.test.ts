import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { readAudienceCookie, servedAs } from '@/server/features/audience/audience';
import { runAdminCommand } from '@/server/features/admin/commands';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { purchases, subscriptions, user } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { signIn, signOut } from '@/server/features/account/account-flows';
import { appAuth } from '@/server/features/identity/app-auth';
import { findUserByEmail } from '@/server/features/profiles/profiles';
import { readerBillingNotice } from '@/server/features/billing/reader-notices';
import { setMeteredAllowance } from '@/server/features/metered';
import { requestAudience } from './request-audience';

/**
 * The audience a request is answered for, with real sessions on a real database: the cookie
 * allow-list read with better-auth's parser, the signed audience cookie, its binding to one
 * session, its expiry, and the database asked when the cookie cannot be trusted.
 */

const PASSWORD = 'kumo-no-ue-no-sora';

const request = (cookie?: string, url = '/posts/a') =>
  ({ method: 'GET', url, headers: cookie ? { cookie } : {} }) as IncomingMessage;
const audienceCookieOf = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';

describe('requestAudience', () => {
  let database: Database;
  const sessions = new Map<string, string>();
  const run = (name: string, args: Record<string, string>) =>
    runAdminCommand({ database, actor: 'cli:test' }, name, args);

  beforeAll(async () => {
    vi.stubEnv('APP_SECRET', 's'.repeat(40));
    database = await createTestDatabase();
    useDatabase(database);
    let ip = 0;
    for (const name of ['free', 'paid', 'editor']) {
      const email = `${name}@example.jp`;
      await run('create-user', {
        email,
        password: PASSWORD,
        role: name === 'editor' ? 'editor' : 'member',
      });
      if (name === 'paid') await run('grant-plan', { email, plan: 'monthly' });
      const result = await signIn(
        { db: database.db, auth: await appAuth() },
        { email, password: PASSWORD },
        { headers: new Headers(), ip: `192.0.2.${++ip}` },
      );
      if (!result.ok) throw new Error(`sign-in failed for ${email}`);
      sessions.set(name, result.setCookies!.map((c) => c.split(';')[0]).join('; '));
    }
  });
  afterAll(async () => {
    useDatabase(undefined);
    await database.close();
    vi.unstubAllEnvs();
  });

  const decide = (cookie?: string, now?: number, url?: string) =>
    requestAudience(request(cookie, url), { secure: false, now });

  it('is anonymous without cookies or with harmless ones only', async () => {
    expect(await decide()).toEqual({ cache: true, audience: 'anonymous' });
    expect(await decide('_ga=GA1.2.3; _ga_ABC123=GS1')).toEqual({
      cache: true,
      audience: 'anonymous',
    });
  });

  it('asks the database for a session, and sets a signed audience cookie for 60 s', async () => {
    const free = await decide(sessions.get('free'));
    expect(free).toMatchObject({ cache: true, audience: 'member' });
    expect(free.setCookie).toMatch(
      /^axis_audience=member:[\w-]+:\d+\.\d+\.[\w-]+; Path=\/; Max-Age=60;/,
    );
    const paid = await decide(sessions.get('paid'));
    expect(paid).toMatchObject({ cache: true, audience: 'paid' });
    // Staff are rendered per request.
    expect(await decide(sessions.get('editor'))).toMatchObject({ cache: false });
  });

  it('trusts the audience cookie of the same session until it expires', async () => {
    const session = sessions.get('paid')!;
    const cookie = audienceCookieOf((await decide(session)).setCookie);
    const now = Date.now();
    expect(await decide(`${session}; ${cookie}`, now)).toEqual({ cache: true, audience: 'paid' });
    // After 60 s the database is asked again (and answers afresh).
    const later = await decide(`${session}; ${cookie}`, now + 61_000);
    expect(later).toMatchObject({ cache: true, audience: 'paid' });
    expect(later.setCookie).toBeDefined();
  });

  it('never lets an audience cookie of one session serve another', async () => {
    const paidCookie = audienceCookieOf((await decide(sessions.get('paid'))).setCookie);
    // Read first with its own session (so the server has verified that pair once).
    expect(await decide(`${sessions.get('paid')}; ${paidCookie}`)).toEqual({
      cache: true,
      audience: 'paid',
    });
    const free = sessions.get('free')!;
    expect(await decide(`${free}; ${paidCookie}`)).toMatchObject({ audience: 'member' });
    // Without a session it means nothing: anonymous.
    expect(await decide(paidCookie)).toEqual({ cache: true, audience: 'anonymous' });
    // Altered: its own audience written in, or one character of its signature changed.
    const [name, value] = paidCookie.split('=') as [string, string];
    const forged = value.replace(/^paid/, 'member');
    expect(readAudienceCookie(forged, sessions.get('paid')!.split('=')[1]!)).toBeNull();
    const flipped = value.slice(0, -1) + (value.endsWith('A') ? 'B' : 'A');
    expect(await decide(`${free}; ${name}=${flipped}`)).toMatchObject({ audience: 'member' });
  });

  it('follows a plan changed in this process at once', async () => {
    const email = 'free@example.jp';
    const session = sessions.get('free')!;
    const member = await decide(session);
    expect(member).toMatchObject({ audience: 'member' });
    await run('grant-plan', { email, plan: 'monthly' });
    // The member cookie of a second ago is not trusted: the reader who just paid reads at once.
    const paid = await decide(`${session}; ${audienceCookieOf(member.setCookie)}`);
    expect(paid).toMatchObject({ audience: 'paid' });
    await run('revoke-plan', { email });
    // The plan has ended: until the reader is told so, their pages carry that notice, rendered
    // for them alone (never from the cache), and the cookie says so for its minute.
    const ended = await decide(`${session}; ${audienceCookieOf(paid.setCookie)}`);
    expect(ended.cache).toBe(false);
    expect(ended.setCookie).toMatch(/^axis_audience=personal:/);
    const now = Date.now();
    expect(await decide(`${session}; ${audienceCookieOf(ended.setCookie)}`, now)).toEqual({
      cache: false,
    });
    // Told (a page showed it): a member's cached pages again, from the next cookie on.
    const { id } = (await findUserByEmail(database.db, email))!;
    expect((await readerBillingNotice(database.db, id))?.kind).toBe('plan_ended');
    expect(
      await decide(`${session}; ${audienceCookieOf(ended.setCookie)}`, now + 61_000),
    ).toMatchObject({ cache: true, audience: 'member' });
  });

  it('follows a plan ended elsewhere (another instance) once the cookie expires', async () => {
    await run('grant-plan', { email: 'free@example.jp', plan: 'monthly' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // the cookie is signed after the grant
    const session = sessions.get('free')!;
    const first = await decide(session);
    expect(first).toMatchObject({ audience: 'paid' });
    // As another instance would: straight in the database, no change noted here.
    await database.db
      .update(subscriptions)
      .set({ status: 'canceled' })
      .where(eq(subscriptions.provider, 'complimentary'));
    const cookie = audienceCookieOf(first.setCookie);
    const now = Date.now();
    expect(await decide(`${session}; ${cookie}`, now + 30_000)).toMatchObject({
      audience: 'paid',
    });
    // No longer paid: rendered for the reader alone while their plan's end is to be told.
    expect(await decide(`${session}; ${cookie}`, now + 61_000)).toMatchObject({ cache: false });
  });

  it('renders a buyer’s post pages for them alone, their other pages the free members’', async () => {
    const email = 'buyer@example.jp';
    await run('create-user', { email, password: PASSWORD, role: 'member' });
    const { id } = (await findUserByEmail(database.db, email))!;
    const signedIn = await signIn(
      { db: database.db, auth: await appAuth() },
      { email, password: PASSWORD },
      { headers: new Headers(), ip: '192.0.2.20' },
    );
    if (!signedIn.ok) throw new Error('sign-in failed');
    const session = signedIn.setCookies!.map((c) => c.split(';')[0]).join('; ');
    await database.db.insert(purchases).values({
      id: 'pur_audience',
      userId: id,
      kind: 'post',
      endpoint: 'posts',
      contentId: 'a',
      title: 'a',
      amount: 300,
      tax: 27,
      method: 'card',
      customerId: 'cus_x',
      state: 'paid',
    });
    const post = await decide(session);
    expect(post).toMatchObject({ cache: false });
    expect(post.setCookie).toMatch(/^axis_audience=buyer:/);
    const cookie = `${session}; ${audienceCookieOf(post.setCookie)}`;
    expect(await decide(cookie)).toEqual({ cache: false });
    expect(await decide(cookie, undefined, '/posts/b?x=1')).toEqual({ cache: false });
    expect(await decide(cookie, undefined, '/')).toEqual({ cache: true, audience: 'member' });
    expect(await decide(cookie, undefined, '/posts')).toEqual({ cache: true, audience: 'member' });
  });

  it.each([
    // Spelled so that better-auth signs the user in while a pattern sees no session.
    ['a space before =', (s: string) => s.replace('=', ' =')],
    ['a tab before =', (s: string) => s.replace('=', '\t=')],
    ['the session twice', (s: string) => `${s}; ${s}`],
    ['an unknown cookie beside it', (s: string) => `${s}; theme=dark`],
    ['a preview cookie', (s: string) => `${s}; axis_preview=x.1.y`],
    ['a one-time message', (s: string) => `axis_flash=e30; ${s}`],
    ['the framework draft cookie', (s: string) => `__prerender_bypass=1; ${s}`],
  ])('renders per request, never from a cache, with %s', async (_, spell) => {
    expect(await decide(spell(sessions.get('paid')!))).toMatchObject({ cache: false });
  });

  it('serves a copied session and audience cookie pair anonymously at once after sign-out', async () => {
    // The attack run's finding: the pair kept reading paid pages for the cookie's minute.
    const email = 'leaver@example.jp';
    await run('create-user', { email, password: PASSWORD, role: 'member' });
    await run('grant-plan', { email, plan: 'monthly' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // the cookie is signed after the grant
    const deps = { db: database.db, auth: await appAuth() };
    const signedIn = await signIn(
      deps,
      { email, password: PASSWORD },
      { headers: new Headers(), ip: '192.0.2.9' },
    );
    if (!signedIn.ok) throw new Error('sign-in failed');
    const session = signedIn.setCookies!.map((c) => c.split(';')[0]).join('; ');
    const paid = await decide(session);
    expect(paid).toMatchObject({ cache: true, audience: 'paid' });
    const copied = `${session}; ${audienceCookieOf(paid.setCookie)}`;
    expect(await decide(copied)).toMatchObject({ audience: 'paid' });

    const [{ id: userId }] = (await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, email))) as [{ id: string }];
    const signedOut = await signOut(
      deps,
      { headers: new Headers({ cookie: copied }), ip: '192.0.2.9' },
      userId,
    );
    if (!signedOut.ok) throw new Error('sign-out failed');
    // The browser that signed out drops its audience cookie too.
    expect(signedOut.setCookies).toContainEqual(
      expect.stringMatching(/^axis_audience=; .*Max-Age=0/),
    );
    expect(await decide(copied)).toMatchObject({ cache: true, audience: 'anonymous' });
  });

  it('is anonymous for a forged or signed-out session (the database knows none)', async () => {
    expect(await decide('axis.session_token=forged.value')).toMatchObject({
      cache: true,
      audience: 'anonymous',
    });
  });

  it('while the metered wall is on, leaves a free member’s post page to their own meter, whatever the cookie says', async () => {
    // docs/decisions/055-metered-wall.md: the meter is the database's; no cookie carries a count.
    // Whose meter is the session's own (front/metered-page.ts chooses the entry).
    const email = 'metered@example.jp';
    await run('create-user', { email, password: PASSWORD, role: 'member' });
    const signedIn = await signIn(
      { db: database.db, auth: await appAuth() },
      { email, password: PASSWORD },
      { headers: new Headers(), ip: '192.0.2.30' },
    );
    if (!signedIn.ok) throw new Error('sign-in failed');
    const session = signedIn.setCookies!.map((c) => c.split(';')[0]).join('; ');
    const off = await decide(session);
    expect(off).toMatchObject({ cache: true, audience: 'member' });
    const cookie = `${session}; ${audienceCookieOf(off.setCookie)}`;
    const by = { actor: 'user:test', ip: null };
    await setMeteredAllowance(database.db, 2, by);
    const userId = (await findUserByEmail(database.db, email))!.id;
    try {
      // The member cookie signed before, replayed: still only this reader's meter decides.
      const metered = { cache: true, audience: 'member', meterFor: userId };
      expect(await decide(cookie)).toEqual(metered);
      expect(await decide(cookie, undefined, '/posts/b?x=1')).toEqual(metered);
      expect(await decide(cookie, undefined, '/posts')).toEqual({
        cache: true,
        audience: 'member',
      });
      // Altered to claim the paid audience or another reader: refused, the database asked.
      const [name, value] = audienceCookieOf(off.setCookie).split('=') as [string, string];
      for (const forged of [value.replace(/^member/, 'paid'), value.replace(userId, 'x')]) {
        const asked = await decide(`${session}; ${name}=${forged}`);
        expect(asked).toMatchObject(metered);
        expect(asked.setCookie).toMatch(/^axis_audience=member:/);
      }
      // A paid reader and a visitor keep their cached pages.
      expect(servedAs('paid', '/posts/a', { metered: true })).toBe('paid');
      expect(await decide()).toEqual({ cache: true, audience: 'anonymous' });
    } finally {
      await setMeteredAllowance(database.db, 0, by);
    }
    expect(await decide(cookie)).toEqual({ cache: true, audience: 'member' });
  });
});
