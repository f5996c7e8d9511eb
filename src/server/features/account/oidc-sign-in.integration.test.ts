import { eq } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import { decodeJwt } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '@/server/platform/audit/audit-log';
import { account, session, user, userPrivateProfiles } from '@/server/platform/db/schema';
import type { FlowDeps } from './account-flows';
import { createAuth } from '@/server/features/identity/auth';
import { type OidcSettings, configuredProviders } from '@/server/features/identity/oidc-providers';
import { finishProviderSignIn, startProviderSignIn } from './oidc-sign-in';
import { BASE, HANAKO, setUpAccountFlows } from '@test-support/account-flows';

/**
 * Sign-in with LINE and Google end to end against a local OpenID Connect provider
 * (oauth2-mock-server): our form's answer, the provider's authorization redirect, its token
 * endpoint, and the callback that ends with a session. Google is reached through discovery and
 * its keys; LINE as LINE does it, an HS256 ID token signed with the channel secret.
 */

const LINE_CHANNEL = { channelId: '1234567890', channelSecret: 'line-channel-secret-0123456789' };
const GOOGLE_CLIENT = {
  clientId: 'test-client.apps.googleusercontent.com',
  clientSecret: 'google-secret',
};

/** A JWT signed with HS256, as LINE signs a web login's ID token with the channel secret. */
function signHs256(claims: object, secret: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** Who the provider says signs in, for the next token request. */
type Person = { sub: string; email?: string; email_verified?: boolean; name?: string };

describe('sign-in with LINE and Google against a local OpenID Connect provider', () => {
  const t = setUpAccountFlows({ hanako: 'verified' });
  const provider = new OAuth2Server();
  let deps: FlowDeps;
  let person: Person = { sub: 'nobody' };
  /** Signs LINE's ID tokens with another secret (a forged token). */
  let lineSecret = LINE_CHANNEL.channelSecret;

  beforeAll(async () => {
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    const issuer = provider.issuer.url!;
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
      Object.assign(token.payload, person);
    });
    // LINE signs a web login's ID token with HS256 and the channel secret, not with its keys.
    provider.service.on(
      'beforeResponse',
      (
        response: { body: Record<string, unknown> },
        req: { body?: Record<string, string>; headers: Record<string, string | undefined> },
      ) => {
        const basic = req.headers.authorization?.startsWith('Basic ')
          ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString()
          : '';
        const client = req.body?.client_id ?? basic.split(':')[0];
        if (client !== LINE_CHANNEL.channelId || typeof response.body.id_token !== 'string') return;
        // Signed here, synchronously: the server answers as soon as its handlers return.
        response.body.id_token = signHs256(decodeJwt(response.body.id_token), lineSecret);
      },
    );
    const settings: OidcSettings = {
      line: {
        ...LINE_CHANNEL,
        issuer,
        authorizationUrl: `${issuer}/authorize`,
        tokenUrl: `${issuer}/token`,
      },
      google: { ...GOOGLE_CLIENT, discoveryUrl: `${issuer}/.well-known/openid-configuration` },
    };
    expect(configuredProviders(settings)).toEqual(['line', 'google']);
    deps = {
      db: t.database.db,
      auth: createAuth(t.database.db, { secret: 'x'.repeat(32), baseURL: BASE, oidc: settings }),
    };
  });

  afterAll(async () => {
    await provider.stop();
  });

  afterEach(() => {
    lineSecret = LINE_CHANNEL.channelSecret;
  });

  /** The whole round trip as a browser makes it: answers the callback's response. */
  async function signInWith(id: 'line' | 'google', who: Person, next = '/') {
    person = who;
    const started = await startProviderSignIn(deps, id, { next }, t.ctx());
    expect(started.ok).toBe(true);
    if (!started.ok) throw new Error('not started');
    const cookie = (started.setCookies ?? []).map((c) => c.split(';')[0]).join('; ');
    const authorize = new URL(started.redirectTo!);
    expect(authorize.origin).toBe(new URL(provider.issuer.url!).origin);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${BASE}/api/auth/callback/${id}`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    // The provider signs the person in and sends them back with a code.
    const approved = await fetch(authorize, { redirect: 'manual' });
    const callback = approved.headers.get('location')!;
    expect(callback.startsWith(`${BASE}/api/auth/callback/${id}?`)).toBe(true);
    return finishProviderSignIn(deps, id, new Request(callback, { headers: { cookie } }), {
      ip: '198.51.100.60',
    });
  }

  const sessionOf = async (response: Response) => {
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('axis.session_token='));
    if (!cookie) return null;
    const token = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!).split('.')[0]!;
    const [row] = await t.database.db.select().from(session).where(eq(session.token, token));
    return row ?? null;
  };

  const userByEmail = async (email: string) =>
    (await t.database.db.select().from(user).where(eq(user.email, email)))[0];

  it('creates the account of a new Google reader with their consent, signs them in and returns them', async () => {
    const response = await signInWith(
      'google',
      { sub: 'g-1', email: 'new.google@example.jp', email_verified: true, name: 'グーグル 読者' },
      '/posts/post-001',
    );
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!, BASE).pathname).toBe('/posts/post-001');
    const created = await userByEmail('new.google@example.jp');
    expect(created).toMatchObject({ emailVerified: true, name: 'グーグル 読者' });
    expect((await sessionOf(response))?.userId).toBe(created!.id);
    const [profile] = await t.database.db
      .select()
      .from(userPrivateProfiles)
      .where(eq(userPrivateProfiles.userId, created!.id));
    expect(profile?.termsAcceptedAt).toBeInstanceOf(Date);
    const audit = await listAudit(t.database.db, 5);
    expect(audit.find((a) => a.action === 'sign-in')).toMatchObject({
      target: `user:${created!.id}`,
      ip: '198.51.100.60',
      detail: { method: 'google' },
    });
    // The same Google account signs in to the same reader again.
    const again = await signInWith('google', { sub: 'g-1', email: 'new.google@example.jp' });
    expect((await sessionOf(again))?.userId).toBe(created!.id);
  });

  it('joins an existing account only when the provider says the address is verified', async () => {
    const hanako = await userByEmail(HANAKO.email);
    const unverified = await signInWith('google', {
      sub: 'g-2',
      email: HANAKO.email,
      email_verified: false,
    });
    expect(await sessionOf(unverified)).toBeNull();
    const refused = new URL(unverified.headers.get('location')!, BASE);
    expect(refused.pathname).toBe('/login');
    expect(refused.searchParams.get('provider')).toBe('google');
    expect(refused.searchParams.get('error')).toBe('account_not_linked');

    const verified = await signInWith('google', {
      sub: 'g-2',
      email: HANAKO.email,
      email_verified: true,
    });
    expect((await sessionOf(verified))?.userId).toBe(hanako!.id);
    const linked = await t.database.db.select().from(account).where(eq(account.userId, hanako!.id));
    expect(linked.map((a) => a.providerId).sort()).toEqual(['credential', 'google']);
  });

  it('never joins a LINE login to an existing account (LINE does not say the address is verified)', async () => {
    const response = await signInWith('line', { sub: 'U-line-1', email: HANAKO.email });
    expect(await sessionOf(response)).toBeNull();
    expect(new URL(response.headers.get('location')!, BASE).searchParams.get('error')).toBe(
      'account_not_linked',
    );
    const audit = await listAudit(t.database.db, 5);
    expect(audit.find((a) => a.action === 'sign-in-failed')).toMatchObject({
      detail: { method: 'line', reason: 'account_not_linked' },
    });
  });

  it('signs in a new LINE reader, whose address our own mail then confirms', async () => {
    const response = await signInWith(
      'line',
      { sub: 'U-line-2', email: 'new.line@example.jp', name: 'ライン 読者' },
      '/service-plans',
    );
    expect(new URL(response.headers.get('location')!, BASE).pathname).toBe('/service-plans');
    const created = await userByEmail('new.line@example.jp');
    expect(created).toMatchObject({ emailVerified: false, name: 'ライン 読者' });
    expect((await sessionOf(response))?.userId).toBe(created!.id);
    expect((await t.mailsTo('new.line@example.jp')).map((m) => m.kind)).toContain('verify-email');
  });

  it('refuses a LINE ID token not signed with the channel secret', async () => {
    lineSecret = 'another-secret-of-someone-else-000';
    const response = await signInWith('line', { sub: 'U-line-3', email: 'forged@example.jp' });
    expect(await sessionOf(response)).toBeNull();
    expect(await userByEmail('forged@example.jp')).toBeUndefined();
  });

  it('refuses a callback without the state cookie of the browser that started it', async () => {
    person = { sub: 'g-3', email: 'stolen@example.jp', email_verified: true };
    const started = await startProviderSignIn(deps, 'google', {}, t.ctx());
    if (!started.ok) throw new Error('not started');
    const approved = await fetch(new URL(started.redirectTo!), { redirect: 'manual' });
    const response = await finishProviderSignIn(
      deps,
      'google',
      new Request(approved.headers.get('location')!),
      { ip: null },
    );
    expect(await sessionOf(response)).toBeNull();
    expect(await userByEmail('stolen@example.jp')).toBeUndefined();
  });

  it('answers 404 for a provider that is not configured or not known', async () => {
    const plain = {
      db: t.database.db,
      auth: createAuth(t.database.db, { secret: 'x'.repeat(32), baseURL: BASE, oidc: {} }),
    };
    expect(await startProviderSignIn(plain, 'google', {}, t.ctx())).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await startProviderSignIn(deps, 'github', {}, t.ctx())).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(configuredProviders({})).toEqual([]);
  });
});
