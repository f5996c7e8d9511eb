import { eq } from 'drizzle-orm';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listAudit } from '@/server/platform/audit/audit-log';
import { useDatabase } from '@/server/platform/db/client';
import { account, session, user, verification } from '@/server/platform/db/schema';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { hit, reset } from '@/server/platform/rate-limit/limiter';
import { LIMITS, signUp } from './account-flows';
import { handleAccountPost, handleSignInLinkFollow } from './account-http';
import { SIGN_IN_LINK_SECONDS } from '@/server/features/identity/auth';
import { ACCOUNT_MAIL_LIMITS } from '@/server/features/identity/account-mail';
import {
  SIGN_IN_LINK_SENT_MESSAGE,
  followSignInLink,
  requestSignInLink,
  sendSignInLink,
} from './sign-in-link';
import {
  BASE,
  HANAKO,
  setUpAccountFlows,
  signUpForm,
  startAtWindowStart,
} from '@test-support/account-flows';

// The switch page reads the session through next/headers: the request is the test's.
const pageRequest = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(pageRequest.headers) }));

/** The redirect a page threw (its target), or the error itself. */
const redirectOf = (error: unknown) => {
  const digest = (error as { digest?: unknown }).digest;
  return typeof digest === 'string' ? digest.split(';')[2] : error;
};

describe('sign-in by e-mail link', () => {
  const t = setUpAccountFlows({ hanako: 'verified' });
  const { ctx, mailsTo, linkIn } = t;

  afterEach(() => {
    vi.useRealTimers();
  });

  /** Asks for a link as the form does and answers the URL of the newest sign-in mail. */
  async function askForLink(email: string, next?: string): Promise<string> {
    // The tests ask for more links to one mailbox than an hour allows (tested on its own below).
    await reset(t.database.db, ACCOUNT_MAIL_LIMITS.signInLink, email);
    const result = await requestSignInLink(t.deps, { email, next }, ctx());
    expect(result.ok).toBe(true);
    const [mail] = (await mailsTo(email)).filter((m) => m.kind === 'sign-in-link');
    return linkIn(mail!.textBody);
  }

  const follow = (link: string, ip?: string) => {
    const url = new URL(link);
    return followSignInLink(
      t.deps,
      { token: url.searchParams.get('token'), next: url.searchParams.get('next') },
      { ...ctx(), ...(ip ? { ip } : {}) },
    );
  };

  const userId = async (email: string) =>
    (await t.database.db.select().from(user).where(eq(user.email, email)))[0]!.id;

  it('answers the same for a registered and an unknown address; only the member gets a link', async () => {
    const known = await requestSignInLink(t.deps, { email: HANAKO.email }, ctx());
    const unknown = await requestSignInLink(t.deps, { email: 'nobody@example.jp' }, ctx());
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ ok: true, redirectTo: '/login?link=sent' });
    const [link] = (await mailsTo(HANAKO.email)).filter((m) => m.kind === 'sign-in-link');
    expect(link!.textBody).toContain(`${SIGN_IN_LINK_SECONDS / 60} 分`);
    expect(linkIn(link!.textBody)).toMatch(
      /^http:\/\/localhost:3000\/api\/account\/sign-in-link\?/,
    );
    // The unknown address is told there is no account there, with the way to sign up.
    const toNobody = await mailsTo('nobody@example.jp');
    expect(toNobody.map((m) => m.kind)).toEqual(['sign-in-link-no-account']);
    expect(toNobody[0]!.textBody).not.toContain('token=');
    const audit = await listAudit(t.database.db, 10);
    expect(audit.filter((a) => a.action === 'sign-in-link-requested')).toHaveLength(2);
  });

  it('does the same work for a registered and an unknown address: a token made and kept, one mail', async () => {
    const work = async (email: string) => {
      await reset(t.database.db, ACCOUNT_MAIL_LIMITS.signInLink, email);
      const tokens = async () => (await t.database.db.select().from(verification)).length;
      const [tokensBefore, mailsBefore] = [await tokens(), (await mailsTo(email)).length];
      const answer = await requestSignInLink(t.deps, { email }, ctx());
      return {
        answer,
        tokens: (await tokens()) - tokensBefore,
        mails: (await mailsTo(email)).length - mailsBefore,
      };
    };
    const known = await work(HANAKO.email);
    expect(known).toMatchObject({ tokens: 1, mails: 1 });
    expect(await work('nobody-else@example.jp')).toEqual(known);
  });

  it('signs the reader in once; the same link again is refused and the kept copy loses it', async () => {
    const link = await askForLink(HANAKO.email, '/posts/post-001');
    const first = await follow(link, '198.51.100.20');
    expect(first).toMatchObject({ ok: true, redirectTo: '/posts/post-001' });
    if (!first.ok) return;
    const cookie = first.setCookies.find((c) => c.startsWith('axis.session_token='));
    expect(cookie).toMatch(/HttpOnly/i);
    const id = await userId(HANAKO.email);
    expect(first.userId).toBe(id);
    expect(await t.database.db.select().from(session).where(eq(session.userId, id))).not.toEqual(
      [],
    );
    const audit = await listAudit(t.database.db, 10);
    expect(audit.find((a) => a.action === 'sign-in' && a.target === `user:${id}`)).toMatchObject({
      ip: '198.51.100.20',
      detail: { method: 'email-link' },
    });

    const again = await follow(link);
    expect(again).toEqual({
      ok: false,
      reason: 'invalid',
      redirectTo: `/login?link=invalid&next=${encodeURIComponent('/posts/post-001')}`,
    });
    const [kept] = (await mailsTo(HANAKO.email)).filter((m) => m.kind === 'sign-in-link');
    expect(kept!.textBody).not.toContain('token=');
  });

  it("retires every other link of the address once one is used, and no one else's", async () => {
    const older = await askForLink(HANAKO.email);
    const newer = await askForLink(HANAKO.email);
    const unused = await askForLink(HANAKO.email);
    await requestSignInLink(t.deps, { email: 'nobody@example.jp' }, ctx());
    const othersBefore = await t.database.db.select().from(verification);
    expect(await follow(newer)).toMatchObject({ ok: true });
    expect(await follow(older)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await follow(unused)).toMatchObject({ ok: false, reason: 'invalid' });
    // The unknown address's token (made as for anyone) is left alone.
    const othersAfter = await t.database.db.select().from(verification);
    expect(othersAfter.length).toBe(othersBefore.length - 3);
  });

  it('refuses a link older than 15 minutes', async () => {
    const link = await askForLink(HANAKO.email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (SIGN_IN_LINK_SECONDS + 5) * 1000 });
    expect(await follow(link)).toMatchObject({ ok: false, reason: 'invalid' });
    vi.useRealTimers();
    // Spent even though it failed: it does not come back to life.
    expect(await follow(link)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('works just before it expires, and a forged or malformed token signs no one in', async () => {
    const link = await askForLink(HANAKO.email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (SIGN_IN_LINK_SECONDS - 30) * 1000 });
    expect(await follow(link)).toMatchObject({ ok: true });
    vi.useRealTimers();
    for (const token of ['A'.repeat(32), 'short', '../../etc', null])
      expect(await followSignInLink(t.deps, { token }, ctx())).toMatchObject({ ok: false });
  });

  it('never returns to another site', async () => {
    const link = await askForLink(HANAKO.email, 'https://evil.example/');
    expect(new URL(link).searchParams.has('next')).toBe(false);
    const url = new URL(link);
    url.searchParams.set('next', '//evil.example/x');
    expect(await follow(url.toString())).toMatchObject({ ok: true, redirectTo: '/' });
  });

  it('keeps its tokens only as hashes', async () => {
    const link = await askForLink(HANAKO.email);
    const token = new URL(link).searchParams.get('token')!;
    const rows = await t.database.db.select().from(verification);
    expect(rows.some((r) => r.identifier.includes(token) || r.value.includes(token))).toBe(false);
  });

  it('is limited like sign-in per address of the client; mails to a mailbox are capped', async () => {
    const ip = '203.0.113.44';
    for (let i = 0; i < LIMITS.signInIp.max; i++) await hit(t.database.db, LIMITS.signInIp, ip);
    const refused = await requestSignInLink(
      t.deps,
      { email: HANAKO.email },
      { headers: new Headers(), ip },
    );
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(
      await followSignInLink(t.deps, { token: 'A'.repeat(32) }, { headers: new Headers(), ip }),
    ).toMatchObject({ ok: false, reason: 'limited', redirectTo: '/login?link=limited' });

    // Past the mailbox's cap the answer stays the same; only the mails stop.
    startAtWindowStart(ACCOUNT_MAIL_LIMITS.signInLink.windowMs);
    for (const email of ['flood@example.jp', HANAKO.email]) {
      await reset(t.database.db, ACCOUNT_MAIL_LIMITS.signInLink, email);
      const before = (await mailsTo(email)).length;
      for (let i = 0; i < ACCOUNT_MAIL_LIMITS.signInLink.max + 2; i++)
        expect(await requestSignInLink(t.deps, { email }, ctx())).toEqual({
          ok: true,
          redirectTo: '/login?link=sent',
          message: SIGN_IN_LINK_SENT_MESSAGE,
        });
      expect((await mailsTo(email)).length - before).toBe(ACCOUNT_MAIL_LIMITS.signInLink.max);
    }
  });

  it('validates the address with a Japanese message', async () => {
    expect(await requestSignInLink(t.deps, { email: 'not-an-address' }, ctx())).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { email: 'メールアドレスの形式が正しくありません。' },
    });
  });

  it('confirms an unconfirmed address by the link and drops what was set before the proof', async () => {
    const email = 'unconfirmed@example.jp';
    const { signUp } = await import('./account-flows');
    await signUp(
      t.deps,
      { ...HANAKO, email, displayName: '未確認 読者', newsletter: undefined },
      ctx(),
    );
    await sendSignInLink(t.deps, { email }, ctx());
    const [mail] = (await mailsTo(email)).filter((m) => m.kind === 'sign-in-link');
    expect(await follow(linkIn(mail!.textBody))).toMatchObject({ ok: true });
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(row!.emailVerified).toBe(true);
    // The password came with the sign-up, not with the proof: whoever typed it gets nothing.
    expect(await t.database.db.select().from(account).where(eq(account.userId, row!.id))).toEqual(
      [],
    );
  });

  it('answers the link over HTTP with a redirect that carries the session and no Referer', async () => {
    useDatabase(t.database);
    const link = await askForLink(HANAKO.email, '/posts/post-002');
    const response = await handleSignInLinkFollow(
      new Request(link, { headers: { [CLIENT_IP_HEADER]: '198.51.100.30' } }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/posts/post-002');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.getSetCookie().join('\n')).toContain('axis.session_token=');
    const again = await handleSignInLinkFollow(new Request(link));
    expect(again.headers.get('location')).toBe(
      `/login?link=invalid&next=${encodeURIComponent('/posts/post-002')}`,
    );
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(BASE).toBe('http://localhost:3000');
  });
});

describe('a sign-in link followed in a browser signed in as someone else', () => {
  const t = setUpAccountFlows({ hanako: 'verified' });
  const { ctx, mailsTo, linkIn } = t;

  const linkFor = async (email: string, next?: string) => {
    await requestSignInLink(t.deps, { email, next }, ctx());
    const [mail] = (await mailsTo(email)).filter((m) => m.kind === 'sign-in-link');
    return linkIn(mail!.textBody);
  };
  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
  const sessionsOf = async (email: string) => {
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    return t.database.db.select().from(session).where(eq(session.userId, row!.id));
  };
  const switchPost = (origin: string, cookie: string, fields: Record<string, string>) =>
    handleAccountPost(
      new Request(`${BASE}/api/account/switch-account`, {
        method: 'POST',
        headers: {
          origin,
          host: 'localhost:3000',
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields),
      }),
      'switch-account',
    );

  it('asks before switching (login CSRF), on a page without JavaScript, and spends the link only on the reader’s word', async () => {
    useDatabase(t.database);
    // Taro is signed in on this browser (by his own link, so the app's auth made the session).
    await signUp(t.deps, signUpForm('taro@example.jp', '山田 太郎'), ctx());
    const taroCookie = cookiesOf(
      await handleSignInLinkFollow(new Request(await linkFor('taro@example.jp'))),
    );
    expect(taroCookie).toContain('axis.session_token=');

    const hanakoSessions = (await sessionsOf(HANAKO.email)).length;
    const link = await linkFor(HANAKO.email, '/posts/post-003');
    const token = new URL(link).searchParams.get('token')!;
    const asked = await handleSignInLinkFollow(
      new Request(link, { headers: { cookie: taroCookie } }),
    );
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe(
      `/login/switch?token=${token}&next=${encodeURIComponent('/posts/post-003')}`,
    );
    expect(asked.headers.get('referrer-policy')).toBe('no-referrer');
    expect(asked.headers.getSetCookie()).toEqual([]);
    expect(await sessionsOf(HANAKO.email)).toHaveLength(hanakoSessions);

    // The page says who is signed in and whose link it is, in Japanese, with a plain form to
    // switch and a way to stay; its address (the token) is never sent on as a Referer.
    const page = await import('@/app/login/switch/page');
    expect(page.metadata.referrer).toBe('no-referrer');
    pageRequest.headers = new Headers({ cookie: taroCookie });
    const html = renderToStaticMarkup(
      await page.default({ searchParams: Promise.resolve({ token, next: '/posts/post-003' }) }),
    );
    expect(html).toContain('taro@example.jp でログインしています');
    expect(html).toContain('hanako@example.jp のアカウント');
    expect(html).toMatch(/<form[^>]*action="\/api\/account\/switch-account" method="post"/);
    expect(html).toContain(`name="token" value="${token}"`);
    expect(html).toContain('href="/posts/post-003"');
    // Not signed in (any more), or a used link: no question to ask.
    pageRequest.headers = new Headers();
    const signedOut = await page
      .default({ searchParams: Promise.resolve({ token, next: '/posts/post-003' }) })
      .catch(redirectOf);
    expect(signedOut).toBe(
      `${BASE}/api/account/sign-in-link?token=${token}&next=%2Fposts%2Fpost-003`,
    );
    pageRequest.headers = new Headers({ cookie: taroCookie });
    const forged = await page
      .default({ searchParams: Promise.resolve({ token: 'A'.repeat(32) }) })
      .catch(redirectOf);
    expect(forged).toBe('/login?link=invalid');

    // Another site cannot press the button for the reader.
    const crossSite = await switchPost('https://evil.example', taroCookie, { token });
    expect(crossSite.status).toBe(403);
    expect(await sessionsOf(HANAKO.email)).toHaveLength(hanakoSessions);

    // The reader's word: Taro is signed out here, Hanako in, and the link is spent.
    const switched = await switchPost(BASE, taroCookie, { token, next: '/posts/post-003' });
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toBe('/posts/post-003');
    const sessionCookies = switched.headers
      .getSetCookie()
      .filter((cookie) => cookie.startsWith('axis.session_token='));
    expect(sessionCookies.at(-1)).toMatch(/^axis\.session_token=[^;]+;/);
    expect(await sessionsOf('taro@example.jp')).toEqual([]);
    expect(await sessionsOf(HANAKO.email)).toHaveLength(hanakoSessions + 1);
    const audit = await listAudit(t.database.db, 20);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['sign-out', 'sign-in']));
    const again = await handleSignInLinkFollow(new Request(link));
    expect(again.headers.get('location')).toBe(
      `/login?link=invalid&next=${encodeURIComponent('/posts/post-003')}`,
    );
  });

  it('lets a link for the address already signed in through, without asking', async () => {
    useDatabase(t.database);
    const hanakoCookie = cookiesOf(
      await handleSignInLinkFollow(new Request(await linkFor(HANAKO.email))),
    );
    const again = await handleSignInLinkFollow(
      new Request(await linkFor(HANAKO.email, '/posts/post-004'), {
        headers: { cookie: hanakoCookie },
      }),
    );
    expect(again.headers.get('location')).toBe('/posts/post-004');
    expect(again.headers.getSetCookie().join('\n')).toContain('axis.session_token=');
  });
});
