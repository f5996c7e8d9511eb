import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listAudit } from '@/server/platform/audit/audit-log';
import {
  account,
  user,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import { consentHistory } from '@/server/features/profiles/newsletter-consent';
import { hit } from '@/server/platform/rate-limit/limiter';
import { type FlowResult, signIn, signUp } from './account-flows';
import { ACCOUNT_MAIL_LIMITS } from '@/server/features/identity/account-mail';
import { WEAK_PASSWORD_MESSAGE } from '@/server/features/identity/validation';
import {
  BASE,
  PASSWORD,
  setUpAccountFlows,
  signUpForm,
  startAtWindowStart,
} from '@test-support/account-flows';

describe('account flows against the database: sign-up', () => {
  const t = setUpAccountFlows();
  const { ctx, mailsTo, linkIn } = t;
  const signUpWith = (fields: Record<string, string>) => signUp(t.deps, fields, ctx());

  describe('sign-up', () => {
    it('creates the user and both profile records, and mails a verification link', async () => {
      const result = await signUpWith({
        ...signUpForm(' Hanako@Example.jp ', '山田 花子'),
        newsletter: 'on',
      });
      expect(result).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
      const [row] = await t.database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(row).toMatchObject({ name: '山田 花子', role: 'member', emailVerified: false });
      const [pub] = await t.database.db
        .select()
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, row!.id));
      expect(pub).toMatchObject({ displayName: '山田 花子', partnerId: '' });
      const [priv] = await t.database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, row!.id));
      expect(priv).toMatchObject({ email: 'hanako@example.jp', newsletter: true, stripeId: null });
      expect(priv!.termsAcceptedAt).toBeInstanceOf(Date);
      // The opt-in is in the consent log (特定電子メール法: when, how, where).
      expect(await consentHistory(t.database.db, row!.id)).toMatchObject([
        { action: 'subscribed', method: 'sign-up', page: '/sign-up' },
      ]);
      const [stored] = await t.database.db
        .select()
        .from(account)
        .where(eq(account.userId, row!.id));
      expect(stored!.password).not.toContain(PASSWORD);

      const [mail] = await mailsTo('hanako@example.jp');
      expect(mail).toMatchObject({ kind: 'verify-email', status: 'stored' });
      expect(mail!.subject).toContain('メールアドレスの確認');
      expect(linkIn(mail!.textBody)).toContain(`${BASE}/api/auth/verify-email?token=`);
      expect(mail!.htmlBody).toContain('メールアドレスを確認する');
    });

    it('keeps the first paywall met as where the sign-up started, but not under DNT or GPC', async () => {
      const sourceOf = async (email: string) => {
        const [row] = await t.database.db
          .select({
            endpoint: userPrivateProfiles.sourceEndpoint,
            contentId: userPrivateProfiles.sourceContentId,
          })
          .from(userPrivateProfiles)
          .where(eq(userPrivateProfiles.email, email));
        return row;
      };
      const cookie = 'axis_path_start=%2Fposts%2Fgated-1';
      const withHeaders = (extra: Record<string, string>) => {
        const context = ctx(cookie);
        for (const [name, value] of Object.entries(extra)) context.headers.set(name, value);
        return context;
      };
      for (const [email, extra] of [
        ['path-start@example.jp', {}],
        ['path-dnt@example.jp', { dnt: '1' }],
        ['path-gpc@example.jp', { 'sec-gpc': '1' }],
      ] as const) {
        const result = await signUp(t.deps, signUpForm(email, '読者'), withHeaders(extra));
        expect(result).toMatchObject({ ok: true });
      }
      expect(await sourceOf('path-start@example.jp')).toEqual({
        endpoint: 'posts',
        contentId: 'gated-1',
      });
      expect(await sourceOf('path-dnt@example.jp')).toEqual({ endpoint: null, contentId: null });
      expect(await sourceOf('path-gpc@example.jp')).toEqual({ endpoint: null, contentId: null });
    });

    it('refuses sign-in until the address is verified, and mails the link again', async () => {
      const result = await signIn(
        t.deps,
        { email: 'hanako@example.jp', password: PASSWORD },
        ctx(),
      );
      expect(result).toMatchObject({ ok: false, status: 403 });
      expect(
        (await mailsTo('hanako@example.jp')).filter((m) => m.kind === 'verify-email'),
      ).toHaveLength(2);
    });

    it('answers a second sign-up with a registered address exactly like a new one, and tells the owner', async () => {
      const again = await signUpWith({
        ...signUpForm('hanako@example.jp', '別人'),
        password: 'another-long-password',
        passwordConfirm: 'another-long-password',
      });
      expect(again).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
      expect(
        await t.database.db.select().from(user).where(eq(user.email, 'hanako@example.jp')),
      ).toHaveLength(1);
      const kinds = (await mailsTo('hanako@example.jp')).map((m) => m.kind);
      expect(kinds).toContain('already-registered');
    });

    it('caps the mails sign-ups send one address, from however many clients, answering each alike', async () => {
      startAtWindowStart(ACCOUNT_MAIL_LIMITS.alreadyRegistered.windowMs);
      const email = 'flooded@example.jp';
      // What the reader sees: the sent page and its message (the cookie carries its own time).
      const seen = (result: FlowResult) =>
        result.ok ? { redirectTo: result.redirectTo, message: result.message } : result;
      const first = seen(await signUpWith(signUpForm(email, '本人')));
      // Each try from a client address of its own (ctx), as the attack did.
      for (let i = 0; i < ACCOUNT_MAIL_LIMITS.alreadyRegistered.max + 2; i++)
        expect(seen(await signUpWith(signUpForm(email, '別人')))).toEqual(first);
      const kinds = (await mailsTo(email)).map((m) => m.kind);
      expect(kinds.filter((kind) => kind === 'verify-email')).toHaveLength(1);
      expect(kinds.filter((kind) => kind === 'already-registered')).toHaveLength(
        ACCOUNT_MAIL_LIMITS.alreadyRegistered.max,
      );
      // On record once, not once per dropped mail.
      const capped = (await listAudit(t.database.db, 50)).filter(
        (a) => a.action === 'mail-capped' && a.target === 'email:f***@example.jp',
      );
      expect(capped).toMatchObject([{ detail: { kind: 'already-registered' } }]);
    });

    it('caps the confirmation mails that sign-ins to an unconfirmed account send, with the same answer', async () => {
      startAtWindowStart(ACCOUNT_MAIL_LIMITS.verification.windowMs);
      const email = 'unconfirmed-flood@example.jp';
      await signUpWith(signUpForm(email, '未確認'));
      const mailed = async () =>
        (await mailsTo(email)).filter((m) => m.kind === 'verify-email').length;
      const before = await signIn(t.deps, { email, password: PASSWORD }, ctx());
      expect(await mailed()).toBe(2);
      // The address has had its hour's confirmation mails (as if from many sign-ins).
      for (let i = 2; i < ACCOUNT_MAIL_LIMITS.verification.max; i++)
        await hit(t.database.db, ACCOUNT_MAIL_LIMITS.verification, email);
      expect(await signIn(t.deps, { email, password: PASSWORD }, ctx())).toEqual(before);
      expect(await mailed()).toBe(2);
    });

    it('starts again a sign-up a crash cut short (no password yet), and leaves finished ones alone', async () => {
      // What a process killed inside better-auth's sign-up leaves: the user, no password.
      await t.database.db.insert(user).values({
        id: 'cut-short',
        name: '途中',
        email: 'cut@example.jp',
        emailVerified: false,
      });
      const retry = await signUpWith(signUpForm('cut@example.jp', '再登録'));
      expect(retry).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
      const rows = await t.database.db.select().from(user).where(eq(user.email, 'cut@example.jp'));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: '再登録' });
      expect(rows[0]!.id).not.toBe('cut-short');
      const [priv] = await t.database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, rows[0]!.id));
      expect(priv!.termsAcceptedAt).toBeInstanceOf(Date);
      expect(
        (await mailsTo('cut@example.jp')).filter((m) => m.kind === 'verify-email'),
      ).toHaveLength(1);

      // better-auth writes the profile records last: a user with its password but without them
      // is unfinished too, and replaced.
      await t.database.db
        .delete(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, rows[0]!.id));
      await signUpWith(signUpForm('cut@example.jp', '再々登録'));
      const whole = await t.database.db.select().from(user).where(eq(user.email, 'cut@example.jp'));
      expect(whole.map((r) => r.name)).toEqual(['再々登録']);
      rows[0] = whole[0]!;

      // An unverified account with its password and profiles is a real one: kept, its owner told.
      await signUpWith({
        email: 'cut@example.jp',
        password: 'another-long-password',
        passwordConfirm: 'another-long-password',
        displayName: '別人',
        consent: 'on',
      });
      const after = await t.database.db.select().from(user).where(eq(user.email, 'cut@example.jp'));
      expect(after.map((r) => r.id)).toEqual([rows[0].id]);
      expect((await mailsTo('cut@example.jp')).map((m) => m.kind)).toContain('already-registered');
    });

    it('makes a cut sign-up whole when its confirmation link is followed', async () => {
      // The kill came after the mail, before the profile records: the link still works.
      const result = await signUpWith(signUpForm('linked@example.jp', 'リンク'));
      expect(result.ok).toBe(true);
      const [row] = await t.database.db
        .select()
        .from(user)
        .where(eq(user.email, 'linked@example.jp'));
      await t.database.db.delete(userPublicProfiles).where(eq(userPublicProfiles.userId, row!.id));
      await t.database.db
        .delete(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, row!.id));
      const [mail] = await mailsTo('linked@example.jp');
      expect((await t.auth.handler(new Request(linkIn(mail!.textBody)))).status).toBe(302);
      const [pub] = await t.database.db
        .select()
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, row!.id));
      const [priv] = await t.database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, row!.id));
      expect(pub).toMatchObject({ displayName: 'リンク' });
      expect(priv).toMatchObject({ email: 'linked@example.jp' });
      expect(priv!.termsAcceptedAt).toEqual(row!.createdAt);
    });

    it('validates every field in Japanese and writes nothing', async () => {
      const result = await signUpWith({
        email: 'not-an-address',
        password: 'password',
        passwordConfirm: 'different',
        displayName: '',
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.status).toBe(400);
      expect(result.fieldErrors).toMatchObject({
        email: 'メールアドレスの形式が正しくありません。',
        displayName: '表示名を入力してください。',
        consent: '利用規約とプライバシーポリシーへの同意が必要です。',
      });
      const common = await signUpWith({
        email: 'x@example.jp',
        password: 'qwertyuiop',
        passwordConfirm: 'qwertyuiop',
        displayName: 'x',
        consent: 'on',
      });
      expect(!common.ok && common.fieldErrors?.password).toMatch(
        new RegExp(`^${WEAK_PASSWORD_MESSAGE}`),
      );
      // Every message at once: the weak password beside a missing consent.
      const both = await signUpWith({
        email: 'x@example.jp',
        password: 'password',
        passwordConfirm: 'password',
        displayName: 'x',
      });
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
        const weak = await signUpWith({
          email: 'x@example.jp',
          password,
          passwordConfirm: password,
          displayName,
          consent: 'on',
        });
        expect(weak, password).toMatchObject({ ok: false, status: 400 });
        expect(!weak.ok && weak.fieldErrors?.password, password).toMatch(
          new RegExp(`^${WEAK_PASSWORD_MESSAGE}.+`),
        );
      }
      const same = await signUpWith({
        email: 'long.address@example.jp',
        password: 'long.address@example.jp',
        passwordConfirm: 'long.address@example.jp',
        displayName: 'x',
        consent: 'on',
      });
      expect(!same.ok && same.fieldErrors?.password).toBe(
        'メールアドレスと同じパスワードは使えません。',
      );
      const short = await signUpWith({
        email: 'y@example.jp',
        password: 'short',
        passwordConfirm: 'short',
        displayName: 'y',
        consent: 'on',
      });
      expect(!short.ok && short.fieldErrors?.password).toBe(
        'パスワードは 8 文字以上にしてください。',
      );
      expect(
        await t.database.db.select().from(user).where(eq(user.email, 'x@example.jp')),
      ).toHaveLength(0);
    });
  });
});
