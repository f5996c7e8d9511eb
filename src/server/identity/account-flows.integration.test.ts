import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPlanName, deriveAuthState } from '@/lib/auth-state';
import { listAudit } from '@/server/audit/audit-log';
import type { Database } from '@/server/db/client';
import {
  account,
  session,
  subscriptions,
  user,
  userPrivateProfiles,
  userPublicProfiles,
  verification,
} from '@/server/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { listOutbox } from '@/server/mail/mailer';
import { hit } from '@/server/rate-limit/limiter';
import { loadIdentity } from '@/server/profiles/profiles';
import { grantComplimentary } from '@/server/profiles/subscriptions';
import {
  LIMITS,
  SIGN_IN_SLOWDOWN,
  type FlowDeps,
  type FlowResult,
  changeEmail,
  deleteAccount,
  requestPasswordReset,
  resetPassword,
  signIn,
  signInDelayMs,
  signUp,
} from './account-flows';
import { type Auth, createAuth } from './auth';
import { editProfile } from './profile-flow';
import type { AppUser } from './session-user';
import { WEAK_PASSWORD_MESSAGE } from './validation';

const BASE = 'http://localhost:3000';
const PASSWORD = 'kumo-no-ue-no-sora';

describe('account flows against the database', () => {
  let database: Database;
  let auth: Auth;
  let deps: FlowDeps;
  let ipCounter = 0;
  /** A fresh address per call, so per-IP limits only bite where a test means them to. */
  const ctx = (cookie?: string) => ({
    headers: new Headers(cookie ? { cookie } : {}),
    ip: `192.0.2.${++ipCounter % 250}`,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    auth = createAuth(database.db, { secret: 'x'.repeat(32), baseURL: BASE });
    deps = { db: database.db, auth };
  });
  afterAll(async () => {
    await database.close();
  });

  const mailsTo = (to: string) => listOutbox(database.db, { to });
  const linkIn = (text: string | null) => /https?:\/\/\S+/.exec(text ?? '')?.[0] ?? '';
  const cookieOf = (result: FlowResult) =>
    result.ok ? (result.setCookies ?? []).map((c) => c.split(';')[0]).join('; ') : '';

  async function verifiedMember(email: string, name = '会員 テスト') {
    const result = await signUp(
      deps,
      { email, password: PASSWORD, passwordConfirm: PASSWORD, displayName: name, consent: 'on' },
      ctx(),
    );
    expect(result.ok).toBe(true);
    const [mail] = await mailsTo(email);
    const response = await auth.handler(new Request(linkIn(mail!.textBody)));
    expect(response.status).toBe(302);
    const signedIn = await signIn(deps, { email, password: PASSWORD }, ctx());
    expect(signedIn.ok).toBe(true);
    const [row] = await database.db.select().from(user).where(eq(user.email, email));
    const appUser: AppUser = {
      id: row!.id,
      email,
      name: row!.name,
      role: 'member',
      emailVerified: true,
    };
    return { cookie: cookieOf(signedIn), user: appUser };
  }

  describe('sign-up', () => {
    it('creates the user and both profile records, and mails a verification link', async () => {
      const result = await signUp(
        deps,
        {
          email: ' Hanako@Example.jp ',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          displayName: '山田 花子',
          consent: 'on',
          newsletter: 'on',
        },
        ctx(),
      );
      expect(result).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
      const [row] = await database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(row).toMatchObject({ name: '山田 花子', role: 'member', emailVerified: false });
      const [pub] = await database.db
        .select()
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, row!.id));
      expect(pub).toMatchObject({ displayName: '山田 花子', partnerId: '' });
      const [priv] = await database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, row!.id));
      expect(priv).toMatchObject({ email: 'hanako@example.jp', newsletter: true, stripeId: null });
      expect(priv!.termsAcceptedAt).toBeInstanceOf(Date);
      const [stored] = await database.db.select().from(account).where(eq(account.userId, row!.id));
      expect(stored!.password).not.toContain(PASSWORD);

      const [mail] = await mailsTo('hanako@example.jp');
      expect(mail).toMatchObject({ kind: 'verify-email', status: 'stored' });
      expect(mail!.subject).toContain('メールアドレスの確認');
      expect(linkIn(mail!.textBody)).toContain(`${BASE}/api/auth/verify-email?token=`);
      expect(mail!.htmlBody).toContain('メールアドレスを確認する');
    });

    it('refuses sign-in until the address is verified, and mails the link again', async () => {
      const result = await signIn(deps, { email: 'hanako@example.jp', password: PASSWORD }, ctx());
      expect(result).toMatchObject({ ok: false, status: 403 });
      expect(
        (await mailsTo('hanako@example.jp')).filter((m) => m.kind === 'verify-email'),
      ).toHaveLength(2);
    });

    it('answers a second sign-up with a registered address exactly like a new one, and tells the owner', async () => {
      const again = await signUp(
        deps,
        {
          email: 'hanako@example.jp',
          password: 'another-long-password',
          passwordConfirm: 'another-long-password',
          displayName: '別人',
          consent: 'on',
        },
        ctx(),
      );
      expect(again).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
      expect(
        await database.db.select().from(user).where(eq(user.email, 'hanako@example.jp')),
      ).toHaveLength(1);
      const kinds = (await mailsTo('hanako@example.jp')).map((m) => m.kind);
      expect(kinds).toContain('already-registered');
    });

    it('starts again a sign-up a crash cut short (no password yet), and leaves finished ones alone', async () => {
      // What a process killed inside better-auth's sign-up leaves: the user, no password.
      await database.db.insert(user).values({
        id: 'cut-short',
        name: '途中',
        email: 'cut@example.jp',
        emailVerified: false,
      });
      const retry = await signUp(
        deps,
        {
          email: 'cut@example.jp',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          displayName: '再登録',
          consent: 'on',
        },
        ctx(),
      );
      expect(retry).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
      const rows = await database.db.select().from(user).where(eq(user.email, 'cut@example.jp'));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: '再登録' });
      expect(rows[0]!.id).not.toBe('cut-short');
      const [priv] = await database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, rows[0]!.id));
      expect(priv!.termsAcceptedAt).toBeInstanceOf(Date);
      expect(
        (await mailsTo('cut@example.jp')).filter((m) => m.kind === 'verify-email'),
      ).toHaveLength(1);

      // better-auth writes the profile records last: a user with its password but without them
      // is unfinished too, and replaced.
      await database.db
        .delete(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, rows[0]!.id));
      await signUp(
        deps,
        {
          email: 'cut@example.jp',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          displayName: '再々登録',
          consent: 'on',
        },
        ctx(),
      );
      const whole = await database.db.select().from(user).where(eq(user.email, 'cut@example.jp'));
      expect(whole.map((r) => r.name)).toEqual(['再々登録']);
      rows[0] = whole[0]!;

      // An unverified account with its password and profiles is a real one: kept, its owner told.
      await signUp(
        deps,
        {
          email: 'cut@example.jp',
          password: 'another-long-password',
          passwordConfirm: 'another-long-password',
          displayName: '別人',
          consent: 'on',
        },
        ctx(),
      );
      const after = await database.db.select().from(user).where(eq(user.email, 'cut@example.jp'));
      expect(after.map((r) => r.id)).toEqual([rows[0].id]);
      expect((await mailsTo('cut@example.jp')).map((m) => m.kind)).toContain('already-registered');
    });

    it('makes a cut sign-up whole when its confirmation link is followed', async () => {
      // The kill came after the mail, before the profile records: the link still works.
      const result = await signUp(
        deps,
        {
          email: 'linked@example.jp',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          displayName: 'リンク',
          consent: 'on',
        },
        ctx(),
      );
      expect(result.ok).toBe(true);
      const [row] = await database.db
        .select()
        .from(user)
        .where(eq(user.email, 'linked@example.jp'));
      await database.db.delete(userPublicProfiles).where(eq(userPublicProfiles.userId, row!.id));
      await database.db.delete(userPrivateProfiles).where(eq(userPrivateProfiles.userId, row!.id));
      const [mail] = await mailsTo('linked@example.jp');
      expect((await auth.handler(new Request(linkIn(mail!.textBody)))).status).toBe(302);
      const [pub] = await database.db
        .select()
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, row!.id));
      const [priv] = await database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, row!.id));
      expect(pub).toMatchObject({ displayName: 'リンク' });
      expect(priv).toMatchObject({ email: 'linked@example.jp' });
      expect(priv!.termsAcceptedAt).toEqual(row!.createdAt);
    });

    it('validates every field in Japanese and writes nothing', async () => {
      const result = await signUp(
        deps,
        {
          email: 'not-an-address',
          password: 'password',
          passwordConfirm: 'different',
          displayName: '',
        },
        ctx(),
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.status).toBe(400);
      expect(result.fieldErrors).toMatchObject({
        email: 'メールアドレスの形式が正しくありません。',
        displayName: '表示名を入力してください。',
        consent: '利用規約とプライバシーポリシーへの同意が必要です。',
      });
      const common = await signUp(
        deps,
        {
          email: 'x@example.jp',
          password: 'qwertyuiop',
          passwordConfirm: 'qwertyuiop',
          displayName: 'x',
          consent: 'on',
        },
        ctx(),
      );
      expect(!common.ok && common.fieldErrors?.password).toMatch(
        new RegExp(`^${WEAK_PASSWORD_MESSAGE}`),
      );
      // Every message at once: the weak password beside a missing consent.
      const both = await signUp(
        deps,
        {
          email: 'x@example.jp',
          password: 'password',
          passwordConfirm: 'password',
          displayName: 'x',
        },
        ctx(),
      );
      const errors = both.ok ? {} : (both.fieldErrors ?? {});
      expect(errors.password).toMatch(new RegExp(`^${WEAK_PASSWORD_MESSAGE}`));
      expect(errors.consent).toBeTruthy();
      // Weak beyond any list: zxcvbn's patterns, the person's own name, the site's name.
      for (const [password, displayName] of [
        ['aaaaaaaa', 'x'],
        ['abcdefgh', 'x'],
        ['        ', 'x'],
        ['password1', 'x'],
        ['kobayashitaro', 'Kobayashi Taro'],
        ['AXIS Membership', 'x'],
      ] as const) {
        const weak = await signUp(
          deps,
          {
            email: 'x@example.jp',
            password,
            passwordConfirm: password,
            displayName,
            consent: 'on',
          },
          ctx(),
        );
        expect(weak, password).toMatchObject({ ok: false, status: 400 });
        expect(!weak.ok && weak.fieldErrors?.password, password).toMatch(
          new RegExp(`^${WEAK_PASSWORD_MESSAGE}.+`),
        );
      }
      const same = await signUp(
        deps,
        {
          email: 'long.address@example.jp',
          password: 'long.address@example.jp',
          passwordConfirm: 'long.address@example.jp',
          displayName: 'x',
          consent: 'on',
        },
        ctx(),
      );
      expect(!same.ok && same.fieldErrors?.password).toBe(
        'メールアドレスと同じパスワードは使えません。',
      );
      const short = await signUp(
        deps,
        {
          email: 'y@example.jp',
          password: 'short',
          passwordConfirm: 'short',
          displayName: 'y',
          consent: 'on',
        },
        ctx(),
      );
      expect(!short.ok && short.fieldErrors?.password).toBe(
        'パスワードは 8 文字以上にしてください。',
      );
      expect(
        await database.db.select().from(user).where(eq(user.email, 'x@example.jp')),
      ).toHaveLength(0);
    });
  });

  describe('verification and sign-in', () => {
    it('verifies with the mailed link; the link used again changes nothing', async () => {
      const [mail] = (await mailsTo('hanako@example.jp')).filter((m) => m.kind === 'verify-email');
      const link = linkIn(mail!.textBody);
      const first = await auth.handler(new Request(link));
      expect(first.status).toBe(302);
      const [row] = await database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(row!.emailVerified).toBe(true);
      const again = await auth.handler(new Request(link));
      expect(again.status).toBe(302);
      const forged = await auth.handler(
        new Request(`${BASE}/api/auth/verify-email?token=forged&callbackURL=%2Flogin`),
      );
      expect(forged.headers.get('location')).toContain('error=INVALID_TOKEN');
    });

    it('returns a new member to the page they signed up from, never to another site', async () => {
      const signUpFrom = async (email: string, next: string) => {
        const result = await signUp(
          deps,
          {
            email,
            password: PASSWORD,
            passwordConfirm: PASSWORD,
            displayName: '戻る 読者',
            consent: 'on',
            next,
          },
          ctx(),
        );
        expect(result.ok).toBe(true);
        const [mail] = await mailsTo(email);
        const response = await auth.handler(new Request(linkIn(mail!.textBody)));
        return new URL(response.headers.get('location') ?? '', BASE);
      };
      const back = await signUpFrom('returning@example.jp', '/posts/post-001?x=1');
      expect(back.pathname).toBe('/login');
      expect(back.searchParams.get('verified')).toBe('1');
      expect(back.searchParams.get('next')).toBe('/posts/post-001?x=1');
      const away = await signUpFrom('away@example.jp', 'https://evil.example/');
      expect(away.searchParams.has('next')).toBe(false);
    });

    it('signs in with an HttpOnly, SameSite=Lax database session and audits it with the address', async () => {
      const result = await signIn(
        deps,
        { email: 'HANAKO@example.jp', password: PASSWORD, next: '/posts/x' },
        { headers: new Headers(), ip: '198.51.100.7' },
      );
      expect(result).toMatchObject({ ok: true, redirectTo: '/posts/x' });
      if (!result.ok) return;
      const cookie = result.setCookies!.find((c) => c.startsWith('axis.session_token='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      const [row] = await database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(
        await database.db.select().from(session).where(eq(session.userId, row!.id)),
      ).not.toHaveLength(0);
      const audit = await listAudit(database.db, 50);
      expect(
        audit.find((a) => a.action === 'sign-in' && a.target === `user:${row!.id}`),
      ).toMatchObject({ ip: '198.51.100.7' });
    });

    it('never returns to another site after sign-in', async () => {
      // `next` as the form field carries it: the query's percent-encoding already undone.
      for (const next of [
        '//evil.example/x',
        'https://evil.example',
        '/\\evil.example',
        '/\t/evil.example',
        '/\n/evil.example',
        '/%09/evil.example',
        '/%0A/evil',
        '%2F%2Fevil.example',
        '/%5Cevil.example',
        '///evil.example',
        '/.//evil.example',
        'http:evil.example',
        'javascript:alert(1)',
        '//evil.example@localhost:3000',
        'http://localhost:3000.evil.example',
        '/／evil.example',
        `/${'a'.repeat(5000)}`,
      ]) {
        const result = await signIn(
          deps,
          { email: 'hanako@example.jp', password: PASSWORD, next },
          ctx(),
        );
        expect(result, JSON.stringify(next)).toMatchObject({ ok: true, redirectTo: '/' });
      }
      const kept = await signIn(
        deps,
        { email: 'hanako@example.jp', password: PASSWORD, next: '/posts/x?from=list#body' },
        ctx(),
      );
      expect(kept).toMatchObject({ ok: true, redirectTo: '/posts/x?from=list#body' });
    });

    it('refuses a wrong password with one message for both unknown address and wrong password, and audits it', async () => {
      const wrong = await signIn(
        deps,
        { email: 'hanako@example.jp', password: 'wrong-password' },
        ctx(),
      );
      const unknown = await signIn(
        deps,
        { email: 'nobody@example.jp', password: 'wrong-password' },
        ctx(),
      );
      expect(wrong).toEqual(unknown);
      expect(wrong).toMatchObject({
        ok: false,
        status: 401,
        message: 'メールアドレスまたはパスワードが正しくありません。',
      });
      const audit = await listAudit(database.db, 50);
      expect(audit.filter((a) => a.action === 'sign-in-failed').length).toBeGreaterThanOrEqual(2);
    });

    it("lets the owner in from their own address after a stranger's wrong passwords, and refuses the stranger's address", async () => {
      const { user: owner } = await verifiedMember('owner@example.jp');
      const stranger = () => ({ headers: new Headers(), ip: '203.0.113.66' });
      const answers: FlowResult[] = [];
      for (let i = 0; i < LIMITS.signInPair.max + 2; i++)
        answers.push(
          await signIn(deps, { email: 'owner@example.jp', password: `guess-${i}-x` }, stranger()),
        );
      expect(answers.slice(0, LIMITS.signInPair.max).every((a) => !a.ok && a.status === 401)).toBe(
        true,
      );
      for (const refused of answers.slice(LIMITS.signInPair.max)) {
        expect(refused).toMatchObject({ ok: false, status: 429 });
        expect(!refused.ok && refused.message).toMatch(/分ほど待ってから/);
        expect(!refused.ok && refused.retryAfter).toBeGreaterThan(0);
      }
      // Even the right password is refused from that address until the window ends.
      expect(
        await signIn(deps, { email: 'owner@example.jp', password: PASSWORD }, stranger()),
      ).toMatchObject({ ok: false, status: 429 });

      const home = await signIn(
        deps,
        { email: 'owner@example.jp', password: PASSWORD },
        { headers: new Headers(), ip: '198.51.100.200' },
      );
      expect(home).toMatchObject({ ok: true });

      const audit = await listAudit(database.db, 500);
      const failures = audit.filter(
        (a) =>
          a.action === 'sign-in-failed' &&
          a.ip === '203.0.113.66' &&
          a.target === 'email:o***@example.jp',
      );
      expect(failures).toHaveLength(LIMITS.signInPair.max);
      expect(failures[0]!.detail).toMatchObject({ reason: 'INVALID_EMAIL_OR_PASSWORD' });
      expect(
        audit.some(
          (a) =>
            a.action === 'sign-in' && a.target === `user:${owner.id}` && a.ip === '198.51.100.200',
        ),
      ).toBe(true);
    });

    it('counts only failures per address: a success starts the count again', async () => {
      await verifiedMember('typo@example.jp');
      const mine = () => ({ headers: new Headers(), ip: '198.51.100.201' });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < LIMITS.signInPair.max - 1; i++)
          expect(
            await signIn(deps, { email: 'typo@example.jp', password: `typo-${i}-x` }, mine()),
          ).toMatchObject({ ok: false, status: 401 });
        expect(
          await signIn(deps, { email: 'typo@example.jp', password: PASSWORD }, mine()),
        ).toMatchObject({ ok: true });
      }
    });

    it('slows every attempt on an account past its ceiling, from anywhere, but refuses none', async () => {
      // The count lives in fixed 10-minute windows: start clear of a boundary, or the count
      // would start again halfway through (as it does for a real attacker, every 10 minutes).
      const window = LIMITS.signInAccount.windowMs;
      const left = window - (Date.now() % window);
      if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
      await verifiedMember('popular@example.jp');
      const waits: number[] = [];
      const slowDeps: FlowDeps = {
        ...deps,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      };
      // Strangers spread over many addresses, each under the per-address limit.
      for (let i = 0; i < LIMITS.signInAccount.max; i++)
        expect(
          await signIn(slowDeps, { email: 'popular@example.jp', password: `spray-${i}-x` }, ctx()),
        ).toMatchObject({ ok: false, status: 401 });
      expect(waits).toEqual([]);
      for (let i = 0; i < 6; i++)
        expect(
          await signIn(slowDeps, { email: 'popular@example.jp', password: `more-${i}-x` }, ctx()),
        ).toMatchObject({ ok: false, status: 401 });
      expect(waits).toEqual([250, 500, 1000, 2000, 4000, 4000]);
      expect(Math.max(...waits)).toBeLessThanOrEqual(SIGN_IN_SLOWDOWN.maxMs);
      // The owner waits too, and gets in.
      const owner = await signIn(
        slowDeps,
        { email: 'popular@example.jp', password: PASSWORD },
        ctx(),
      );
      expect(owner).toMatchObject({ ok: true });
      expect(waits.at(-1)).toBe(SIGN_IN_SLOWDOWN.maxMs);
      const delayed = (await listAudit(database.db, 500)).filter(
        (a) => a.action === 'sign-in-failed' && a.detail.delayedMs !== undefined,
      );
      expect(delayed.length).toBeGreaterThanOrEqual(6);
    });

    it('waits longer with each failure past the ceiling, up to a few seconds', () => {
      const ceiling = LIMITS.signInAccount.max;
      expect(signInDelayMs(0)).toBe(0);
      expect(signInDelayMs(ceiling - 1)).toBe(0);
      expect(signInDelayMs(ceiling)).toBe(SIGN_IN_SLOWDOWN.firstMs);
      expect(signInDelayMs(ceiling + 1)).toBe(2 * SIGN_IN_SLOWDOWN.firstMs);
      expect(signInDelayMs(ceiling + 1000)).toBe(SIGN_IN_SLOWDOWN.maxMs);
      expect(SIGN_IN_SLOWDOWN.maxMs).toBeLessThanOrEqual(5000);
      expect(ceiling).toBeGreaterThan(LIMITS.signInPair.max);
    });

    it('answers 429 after too many attempts from one address', async () => {
      const fixed = () => ({ headers: new Headers(), ip: '203.0.113.9' });
      // The address has used all but one of its attempts in this window (counted straight in
      // the table: a hundred password checks would only cost time). Start clear of a window
      // boundary, where the count starts again.
      const limit = LIMITS.signInIp;
      const left = limit.windowMs - (Date.now() % limit.windowMs);
      if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
      for (let i = 0; i < limit.max - 1; i++) await hit(database.db, limit, '203.0.113.9');
      const last = { email: 'spray-last@example.jp', password: 'guess-password' };
      expect(await signIn(deps, last, fixed())).toMatchObject({ ok: false, status: 401 });
      expect(await signIn(deps, last, fixed())).toMatchObject({ ok: false, status: 429 });
      // Another address is not held back by it.
      expect(
        await signIn(deps, last, { headers: new Headers(), ip: '203.0.113.10' }),
      ).toMatchObject({ ok: false, status: 401 });
    });
  });

  describe('password reset', () => {
    it('answers the same for a registered and an unknown address, mailing only the registered one', async () => {
      const known = await requestPasswordReset(deps, { email: 'hanako@example.jp' }, ctx());
      const unknown = await requestPasswordReset(deps, { email: 'ghost@example.jp' }, ctx());
      expect(known).toEqual(unknown);
      expect(await mailsTo('ghost@example.jp')).toHaveLength(0);
      const [mail] = (await mailsTo('hanako@example.jp')).filter(
        (m) => m.kind === 'reset-password',
      );
      expect(linkIn(mail!.textBody)).toMatch(
        /^http:\/\/localhost:3000\/account\/reset-password\?token=/,
      );
    });

    it('stores the token only as a hash', async () => {
      const [mail] = (await mailsTo('hanako@example.jp')).filter(
        (m) => m.kind === 'reset-password',
      );
      const token = new URL(linkIn(mail!.textBody)).searchParams.get('token')!;
      const rows = await database.db.select().from(verification);
      expect(rows.some((r) => r.identifier.includes(token) || r.value.includes(token))).toBe(false);
    });

    it('sets the new password once, signs out every session, and the token cannot be used again', async () => {
      const before = await signIn(deps, { email: 'hanako@example.jp', password: PASSWORD }, ctx());
      expect(before.ok).toBe(true);
      const [mail] = (await mailsTo('hanako@example.jp')).filter(
        (m) => m.kind === 'reset-password',
      );
      const token = new URL(linkIn(mail!.textBody)).searchParams.get('token')!;

      const weak = await resetPassword(
        deps,
        { token, password: 'hanako', passwordConfirm: 'hanako' },
        ctx(),
      );
      expect(weak).toMatchObject({ ok: false, status: 400 });
      const mismatch = await resetPassword(
        deps,
        { token, password: 'new-sky-password', passwordConfirm: 'other' },
        ctx(),
      );
      expect(!mismatch.ok && mismatch.fieldErrors?.passwordConfirm).toBe(
        '確認用のパスワードが一致しません。',
      );

      const done = await resetPassword(
        deps,
        { token, password: 'new-sky-password', passwordConfirm: 'new-sky-password' },
        ctx(),
      );
      expect(done).toMatchObject({ ok: true, redirectTo: '/login?reset=1' });
      const [row] = await database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(
        await database.db.select().from(session).where(eq(session.userId, row!.id)),
      ).toHaveLength(0);
      expect((await mailsTo('hanako@example.jp')).map((m) => m.kind)).toContain('password-changed');

      const reused = await resetPassword(
        deps,
        { token, password: 'third-sky-password', passwordConfirm: 'third-sky-password' },
        ctx(),
      );
      expect(reused).toMatchObject({ ok: false, status: 400 });
      const wrongToken = await resetPassword(
        deps,
        { token: 'nope', password: 'third-sky-password', passwordConfirm: 'third-sky-password' },
        ctx(),
      );
      expect(wrongToken).toMatchObject({ ok: false, status: 400 });
      expect(
        (await signIn(deps, { email: 'hanako@example.jp', password: 'third-sky-password' }, ctx()))
          .ok,
      ).toBe(false);
      expect(
        (await signIn(deps, { email: 'hanako@example.jp', password: 'new-sky-password' }, ctx()))
          .ok,
      ).toBe(true);
      expect((await listAudit(database.db, 100)).some((a) => a.action === 'password-reset')).toBe(
        true,
      );
    });
  });

  describe('e-mail change', () => {
    it('needs the password, mails the new address and tells the old one; nothing changes until the link is followed', async () => {
      const { cookie, user: member } = await verifiedMember('kenji@example.jp', '鈴木 健二');
      const wrong = await changeEmail(
        deps,
        { newEmail: 'kenji.new@example.jp', password: 'not-mine-at-all' },
        ctx(cookie),
        member,
      );
      expect(!wrong.ok && wrong.fieldErrors?.password).toBe('パスワードが正しくありません。');
      expect(await mailsTo('kenji.new@example.jp')).toHaveLength(0);

      const asked = await changeEmail(
        deps,
        { newEmail: 'Kenji.New@example.jp', password: PASSWORD },
        ctx(cookie),
        member,
      );
      expect(asked).toMatchObject({ ok: true });
      expect((await mailsTo('kenji@example.jp')).map((m) => m.kind)).toContain(
        'change-email-notice',
      );
      const [mail] = await mailsTo('kenji.new@example.jp');
      expect(mail!.kind).toBe('change-email');
      const [still] = await database.db.select().from(user).where(eq(user.id, member.id));
      expect(still!.email).toBe('kenji@example.jp');

      const link = linkIn(mail!.textBody);
      await auth.handler(new Request(link));
      const [changed] = await database.db.select().from(user).where(eq(user.id, member.id));
      expect(changed!.email).toBe('kenji.new@example.jp');
      const [priv] = await database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, member.id));
      expect(priv!.email).toBe('kenji.new@example.jp');
      expect(
        (await listAudit(database.db, 200)).some(
          (a) => a.action === 'email-changed' && a.target === `user:${member.id}`,
        ),
      ).toBe(true);

      // The link again, after the change: refused, nothing changes.
      const again = await auth.handler(new Request(link));
      expect(again.headers.get('location')).toContain('error=');
    });

    it('gives no sign that the new address is taken', async () => {
      const { cookie, user: member } = await verifiedMember('aya@example.jp');
      const taken = await changeEmail(
        deps,
        { newEmail: 'hanako@example.jp', password: PASSWORD },
        ctx(cookie),
        member,
      );
      expect(taken).toMatchObject({ ok: true });
      expect(
        (await mailsTo('hanako@example.jp')).filter((m) => m.kind === 'change-email'),
      ).toHaveLength(0);
    });
  });

  describe('profile', () => {
    it('saves the profile fields and refuses values outside the lists', async () => {
      const { cookie, user: member } = await verifiedMember('mika@example.jp', '田中 美香');
      const saved = await editProfile(
        deps,
        {
          displayName: '田中 美香 (編集)',
          occupation: 'デザイナー',
          company: 'スタジオ ミカ',
          interests: ['グラフィック', 'UI・UX'],
          newsletter: 'on',
        },
        ctx(cookie),
        member,
      );
      expect(saved).toMatchObject({ ok: true });
      const [pub] = await database.db
        .select()
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, member.id));
      expect(pub).toMatchObject({
        displayName: '田中 美香 (編集)',
        occupation: 'デザイナー',
        interests: ['グラフィック', 'UI・UX'],
      });
      const [row] = await database.db.select().from(user).where(eq(user.id, member.id));
      expect(row!.name).toBe('田中 美香 (編集)');

      const bad = await editProfile(
        deps,
        { displayName: 'x'.repeat(51), interests: ['ハッキング'] },
        ctx(cookie),
        member,
      );
      expect(bad).toMatchObject({ ok: false, status: 400 });
      expect(!bad.ok && Object.keys(bad.fieldErrors ?? {})).toEqual(
        expect.arrayContaining(['displayName', 'interests']),
      );
    });
  });

  describe('auth state and account deletion', () => {
    it('derives a paid state from a complimentary plan', async () => {
      const { user: member } = await verifiedMember('paid@example.jp');
      await grantComplimentary(database.db, {
        userId: member.id,
        planName: 'スタンダード',
        status: 'active',
      });
      const state = deriveAuthState(await loadIdentity(database.db, member.id));
      expect(state).toMatchObject({
        isPaidUser: true,
        isPartner: false,
        experiencedPaidPlan: false,
      });
      expect(currentPlanName(state)).toBe('スタンダード');
    });

    it('deletes the account after the password, keeping the payment record without the person', async () => {
      const [row] = await database.db.select().from(user).where(eq(user.email, 'paid@example.jp'));
      const signedIn = await signIn(deps, { email: 'paid@example.jp', password: PASSWORD }, ctx());
      const cookie = cookieOf(signedIn);
      const member: AppUser = {
        id: row!.id,
        email: 'paid@example.jp',
        name: row!.name,
        role: 'member',
        emailVerified: true,
      };
      const refused = await deleteAccount(
        deps,
        { password: 'wrong-password', confirm: 'on' },
        ctx(cookie),
        member,
      );
      expect(refused).toMatchObject({ ok: false, status: 400 });
      const unconfirmed = await deleteAccount(deps, { password: PASSWORD }, ctx(cookie), member);
      expect(!unconfirmed.ok && unconfirmed.fieldErrors?.confirm).toBeTruthy();
      expect(await database.db.select().from(user).where(eq(user.id, member.id))).toHaveLength(1);

      const done = await deleteAccount(
        deps,
        { password: PASSWORD, confirm: 'on' },
        ctx(cookie),
        member,
      );
      expect(done).toMatchObject({ ok: true, redirectTo: '/account/delete?done=1' });
      expect(await database.db.select().from(user).where(eq(user.id, member.id))).toHaveLength(0);
      expect(
        await database.db
          .select()
          .from(userPublicProfiles)
          .where(eq(userPublicProfiles.userId, member.id)),
      ).toHaveLength(0);
      expect(
        await database.db
          .select()
          .from(userPrivateProfiles)
          .where(eq(userPrivateProfiles.userId, member.id)),
      ).toHaveLength(0);
      expect(
        await database.db.select().from(session).where(eq(session.userId, member.id)),
      ).toHaveLength(0);
      const kept = await database.db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.planName, 'スタンダード')));
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ userId: null, status: 'canceled' });
      expect((await mailsTo('paid@example.jp')).map((m) => m.kind)).toContain('account-deleted');
      expect(
        (await listAudit(database.db, 300)).some(
          (a) => a.action === 'account-deleted' && a.target === `user:${member.id}`,
        ),
      ).toBe(true);
    });
  });
});
