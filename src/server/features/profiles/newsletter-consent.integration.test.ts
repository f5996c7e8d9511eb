import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  newsletterConsents,
  user,
  userPrivateProfiles,
} from '@/server/platform/db/schema';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { setTestOperator } from '@test-support/operator';
import {
  UNSUBSCRIBE_TOKEN_SECONDS,
  consentHistory,
  isSubscribed,
  setNewsletterConsent,
  unsubscribeToken,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from './newsletter-consent';
import type { AppUser } from '@/server/features/identity/session-user';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { listOutbox } from '@/server/platform/mail/mailer';
import { createAuth } from '@/server/features/identity/auth';
import { newsletterAccountPost } from '@/server/features/newsletter/account-http';
import {
  newsletterConfirmPost,
  newsletterSubscribePost,
} from '@/server/features/newsletter/footer-http';
import { FOOTER_SUBSCRIBE_LIMITS } from '@/server/features/newsletter/footer-subscribe';
import { sendTestLetter } from '@/server/features/newsletter/test-letter';
import {
  handleUnsubscribePost,
  unsubscribeTarget,
} from '@/server/features/newsletter/unsubscribe-http';
import { createContent } from '@/server/services/cms/writes';

// The consent log and the unsubscribe link on a real database: every change is one appended
// row, kept after an unsubscribe and after the account is gone; the token names one reader,
// lives long, and cannot be altered or moved; the one-click POST works from anywhere with no
// cookie, the page's form only from the site.

setTestOperator();
const database = testDatabase();
const SITE = 'http://localhost:3000';

beforeAll(async () => {
  await addReaders(database.db, [
    { id: 'reader-a', email: 'hanako@example.jp' },
    { id: 'reader-b' },
    { id: 'reader-c', newsletter: false },
    { id: 'reader-gone' },
  ]);
});

const post = (token: string, body: string | null, headers: Record<string, string> = {}) =>
  handleUnsubscribePost(
    new Request(`${SITE}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    }),
    { db: () => Promise.resolve(database.db) },
  );

describe('setNewsletterConsent', () => {
  it('appends a row for each change, with when, how and which page, and none for no change', async () => {
    const { db } = database;
    const at = new Date('2026-11-01T00:00:00Z');
    await setNewsletterConsent(db, {
      userId: 'reader-c',
      subscribed: true,
      method: 'account',
      page: '/account',
      ip: '203.0.113.9',
      now: at,
    });
    await setNewsletterConsent(db, { userId: 'reader-c', subscribed: true, method: 'account' });
    expect(await isSubscribed(db, 'reader-c')).toBe(true);
    const history = await consentHistory(db, 'reader-c');
    expect(history).toEqual([{ action: 'subscribed', method: 'account', page: '/account', at }]);
    const [row] = await db
      .select()
      .from(newsletterConsents)
      .where(eq(newsletterConsents.userId, 'reader-c'));
    expect(row!.ipHash).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(row!.ipHash).not.toContain('203.0.113.9');
    const audits = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.target, 'user:reader-c'));
    expect(audits.map((a) => a.action)).toEqual(['newsletter-consent']);
  });

  it('keeps the rows when the reader unsubscribes and when the account is deleted', async () => {
    const { db } = database;
    await setNewsletterConsent(db, { userId: 'reader-gone', subscribed: false, method: 'staff' });
    await db.delete(user).where(eq(user.id, 'reader-gone'));
    const rows = await db
      .select()
      .from(newsletterConsents)
      .where(eq(newsletterConsents.email, 'reader-gone@example.jp'));
    expect(rows).toMatchObject([{ action: 'unsubscribed', method: 'staff', userId: null }]);
    expect(
      await setNewsletterConsent(db, { userId: 'reader-gone', subscribed: true, method: 'staff' }),
    ).toEqual({ found: false, changed: false, email: null });
  });
});

describe('the unsubscribe token', () => {
  it('names its reader, and lives long', () => {
    const now = Date.parse('2026-11-27T00:00:00Z');
    const token = unsubscribeToken('reader-a', now);
    expect(verifyUnsubscribeToken(token, now)).toBe('reader-a');
    const halfYear = now + 180 * 24 * 3600 * 1000;
    expect(verifyUnsubscribeToken(token, halfYear)).toBe('reader-a');
    expect(verifyUnsubscribeToken(token, now + UNSUBSCRIBE_TOKEN_SECONDS * 1000)).toBeNull();
    expect(unsubscribeUrl('reader-a')).toMatch(
      /^http:\/\/localhost:3000\/newsletter\/unsubscribe\?token=[A-Za-z0-9_.-]+$/,
    );
  });

  it('cannot be altered or moved to another reader', () => {
    const token = unsubscribeToken('reader-a');
    const [payload, exp, mac] = token.split('.') as [string, string, string];
    const other = Buffer.from('reader-b').toString('base64url');
    for (const forged of [
      `${other}.${exp}.${mac}`,
      `${payload}.${Number(exp) + 1}.${mac}`,
      `${payload}.${exp}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${payload}.${exp}`,
      '',
      'a.b.c',
      '../../etc',
    ])
      expect(verifyUnsubscribeToken(forged), forged).toBeNull();
  });
});

describe('POST /newsletter/unsubscribe', () => {
  it('unsubscribes on RFC 8058 one-click from another origin, 200 and no cookie', async () => {
    const token = unsubscribeToken('reader-a');
    const response = await post(token, 'List-Unsubscribe=One-Click', {
      origin: 'https://mail.google.com',
      'sec-fetch-site': 'cross-site',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await isSubscribed(database.db, 'reader-a')).toBe(false);
    expect(await consentHistory(database.db, 'reader-a')).toMatchObject([
      { action: 'unsubscribed', method: 'one-click', page: null },
    ]);
    // A scanner's second click changes and records nothing more.
    expect((await post(token, 'List-Unsubscribe=One-Click')).status).toBe(200);
    expect(await consentHistory(database.db, 'reader-a')).toHaveLength(1);
    // The record keeps the reader's address.
    const [kept] = await database.db
      .select({ email: newsletterConsents.email })
      .from(newsletterConsents)
      .where(eq(newsletterConsents.userId, 'reader-a'));
    expect(kept!.email).toBe('hanako@example.jp');
  });

  it('refuses any other body from another origin (the exemption is for the exact form only)', async () => {
    const token = unsubscribeToken('reader-b');
    for (const body of ['', 'List-Unsubscribe=One-Click&x=1', 'List-Unsubscribe=one-click']) {
      const response = await post(token, body, { origin: 'https://evil.example' });
      expect(response.status, body).toBe(403);
    }
    expect(await isSubscribed(database.db, 'reader-b')).toBe(true);
  });

  it('unsubscribes from the page’s button (same origin) and goes back to say so', async () => {
    const token = unsubscribeToken('reader-b');
    const response = await post(token, '', { origin: SITE });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toContain('done=1');
    expect(await isSubscribed(database.db, 'reader-b')).toBe(false);
    expect(await consentHistory(database.db, 'reader-b')).toMatchObject([
      { action: 'unsubscribed', method: 'unsubscribe-page', page: '/newsletter/unsubscribe' },
    ]);
  });

  it('answers a forged, altered or malformed token with 400 in Japanese and changes nothing', async () => {
    await setNewsletterConsent(database.db, {
      userId: 'reader-b',
      subscribed: true,
      method: 'account',
    });
    const good = unsubscribeToken('reader-b');
    for (const token of ['', 'x', `${good}x`, good.replace(/^[^.]+/, 'cmVhZGVyLWE')]) {
      const response = await post(token, 'List-Unsubscribe=One-Click');
      expect(response.status, token).toBe(400);
      expect(await response.text()).toContain('配信停止のリンクが正しくありません');
    }
    expect(await isSubscribed(database.db, 'reader-b')).toBe(true);
  });

  it('shows the page only the masked address', async () => {
    const target = await unsubscribeTarget(database.db, unsubscribeToken('reader-a'));
    expect(target).toEqual({
      userId: 'reader-a',
      maskedEmail: 'h***@example.jp',
      subscribed: false,
    });
    expect(await unsubscribeTarget(database.db, 'forged')).toBeNull();
    const [profile] = await database.db
      .select({ newsletter: userPrivateProfiles.newsletter })
      .from(userPrivateProfiles)
      .where(eq(userPrivateProfiles.userId, 'reader-a'));
    expect(profile!.newsletter).toBe(false);
  });
});

describe('POST /api/newsletter/account', () => {
  const run = (body: string, signedIn: boolean, origin = SITE) =>
    newsletterAccountPost({
      db: () => Promise.resolve(database.db),
      viewer: () =>
        Promise.resolve(
          signedIn ? ({ id: 'reader-a', role: 'member' } as unknown as AppUser) : null,
        ),
    })(
      new Request(`${SITE}/api/newsletter/account`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body,
      }),
    );

  it('lets the signed-in reader subscribe again, and logs it', async () => {
    const response = await run('subscribed=on', true);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account');
    expect(await isSubscribed(database.db, 'reader-a')).toBe(true);
    expect((await consentHistory(database.db, 'reader-a')).at(-1)).toMatchObject({
      action: 'subscribed',
      method: 'account',
      page: '/account',
    });
  });

  it('refuses a visitor and another site', async () => {
    expect((await run('subscribed=off', false)).status).toBe(303); // to the login page
    expect((await run('subscribed=off', true, 'https://evil.example')).status).toBe(403);
    expect(await isSubscribed(database.db, 'reader-a')).toBe(true);
  });
});

describe('sendTestLetter', () => {
  it('mails the whole letter to the staff member, its subject marked, the members’ part in it', async () => {
    const { db } = database;
    await createContent(db, findEndpoint('posts')!, {
      id: 'letter-post',
      body: {
        title: 'テスト配信の記事',
        body: `<p>冒頭</p>${MEMBERS_DIVIDER.html}<p>会員のみ STAFF-SEES-THIS</p>`,
        isPublicPreview: false,
      },
      status: 'draft',
    });
    const staff = { id: 'reader-b', email: 'reader-b@example.jp', name: '編集部' };
    const sent = await sendTestLetter(db, { contentId: 'letter-post', to: staff });
    expect(sent?.subject).toBe('【テスト配信】テスト配信の記事');
    const [mail] = await listOutbox(db, { to: staff.email });
    expect(mail).toMatchObject({
      kind: 'newsletter-test',
      subject: '【テスト配信】テスト配信の記事',
    });
    expect(mail!.textBody).toContain('STAFF-SEES-THIS');
    expect(mail!.textBody).toContain('/newsletter/unsubscribe?token=');
    expect(await sendTestLetter(db, { contentId: 'no-such-post', to: staff })).toBeNull();
  });
});

describe('the footer’s subscription (double opt-in)', () => {
  const deps = () => ({
    db: () => Promise.resolve(database.db),
    auth: () => Promise.resolve(createAuth(database.db, { secret: 'x'.repeat(32), baseURL: SITE })),
  });
  const form = (url: string, body: string, headers: Record<string, string> = {}) =>
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, ...headers },
      body,
    });
  const subscribe = (email: string) =>
    newsletterSubscribePost(deps())(
      form(`${SITE}/api/newsletter/subscribe`, `email=${encodeURIComponent(email)}`, {
        referer: `${SITE}/posts/abc`,
      }),
    );
  const confirmLink = async (to: string) => {
    const mail = (await listOutbox(database.db, { to })).find(
      (m) => m.kind === 'newsletter-confirm',
    );
    return /https?:\/\/\S+\/newsletter\/confirm\?token=[A-Za-z0-9._-]+/.exec(
      mail!.textBody ?? '',
    )![0];
  };

  it('answers every address the same, and mails each its confirmation', async () => {
    for (const email of ['new-reader@example.jp', 'reader-c@example.jp']) {
      const response = await subscribe(email);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/newsletter/subscribe?sent=1');
      expect(await confirmLink(email)).toContain('/newsletter/confirm?token=');
    }
  });

  it('caps the mails to one address, answering past the cap as before it', async () => {
    const email = 'busy-reader@example.jp';
    for (let i = 0; i < FOOTER_SUBSCRIBE_LIMITS.address.max + 1; i++) {
      const response = await subscribe(email);
      expect(response.headers.get('location')).toBe('/newsletter/subscribe?sent=1');
    }
    expect(await listOutbox(database.db, { to: email })).toHaveLength(
      FOOTER_SUBSCRIBE_LIMITS.address.max,
    );
  });

  it('makes a new address a verified free member, subscribed and signed in, once', async () => {
    const link = await confirmLink('new-reader@example.jp');
    const token = new URL(link).searchParams.get('token')!;
    const confirm = () =>
      newsletterConfirmPost(deps())(form(`${SITE}/api/newsletter/confirm?token=${token}`, ''));
    const response = await confirm();
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/newsletter/welcome');
    expect(response.headers.get('set-cookie')).toContain('session_token');
    const [created] = await database.db
      .select()
      .from(user)
      .where(eq(user.email, 'new-reader@example.jp'));
    expect(created).toMatchObject({ emailVerified: true, role: 'member' });
    expect(await isSubscribed(database.db, created!.id)).toBe(true);
    expect(await consentHistory(database.db, created!.id)).toMatchObject([
      { action: 'confirmed', method: 'footer', page: '/posts/abc' },
    ]);
    const again = await confirm();
    expect(again.headers.get('location')).toContain('error=used');
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('only turns the newsletter on for an address that has an account, never signing in', async () => {
    await setNewsletterConsent(database.db, {
      userId: 'reader-c',
      subscribed: false,
      method: 'account',
    });
    const token = new URL(await confirmLink('reader-c@example.jp')).searchParams.get('token')!;
    const response = await newsletterConfirmPost(deps())(
      form(`${SITE}/api/newsletter/confirm?token=${token}`, ''),
    );
    expect(response.headers.get('location')).toBe('/newsletter/welcome?existing=1');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await isSubscribed(database.db, 'reader-c')).toBe(true);
  });

  it('refuses an altered link and changes nothing', async () => {
    const token = new URL(await confirmLink('reader-c@example.jp')).searchParams.get('token')!;
    const response = await newsletterConfirmPost(deps())(
      form(`${SITE}/api/newsletter/confirm?token=${token}x`, ''),
    );
    expect(response.headers.get('location')).toContain('error=invalid');
  });
});
