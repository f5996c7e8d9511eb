import { and, eq } from 'drizzle-orm';
import { consentHistory } from '@/server/features/profiles/newsletter-consent';
import { describe, expect, it } from 'vitest';
import { currentPlanName, deriveAuthState } from '@/lib/auth-state';
import { listAudit } from '@/server/platform/audit/audit-log';
import {
  comments,
  session,
  subscriptions,
  user,
  userPrivateProfiles,
  userPublicProfiles,
  verification,
} from '@/server/platform/db/schema';
import { loadIdentity } from '@/server/features/profiles/profiles';
import { type ContentChange, onContentChange } from '@/server/services/cms/events';
import { hit } from '@/server/platform/rate-limit/limiter';
import { grantComplimentary } from '@/server/features/profiles/subscriptions';
import {
  changeEmail,
  deleteAccount,
  requestPasswordReset,
  resetPassword,
  setPassword,
  signIn,
} from './account-flows';
import {
  createAccountWithoutPassword,
  signInUnconfirmed,
  signInWithoutMail,
} from '@/server/features/identity/auth';
import { ACCOUNT_MAIL_LIMITS } from '@/server/features/identity/account-mail';
import { editProfile } from './profile-flow';
import type { AppUser } from '@/server/features/identity/session-user';
import { PASSWORD, setUpAccountFlows, startAtWindowStart } from '@test-support/account-flows';

describe('account flows against the database: reset, e-mail change, profile, deletion', () => {
  const t = setUpAccountFlows({ hanako: 'verified' });
  const { ctx, mailsTo, linkIn, cookieOf, verifiedMember } = t;

  describe('a first password, for an account made from an address alone', () => {
    const strong = 'mori-no-naka-no-michi-8';
    const cookie = (setCookies: string[]) => setCookies.map((c) => c.split(';')[0]).join('; ');

    it('is set once the address is confirmed, then signs in; not before, not twice', async () => {
      const email = 'paid-guest@example.jp';
      const made = await createAccountWithoutPassword(t.auth, {
        email,
        name: 'paid-guest',
        method: 'test',
      });
      const account: AppUser = { ...made, role: 'member', emailVerified: false };
      // Unconfirmed: refused (the mailbox's link would drop the password anyway).
      const unconfirmed = cookie(await signInUnconfirmed(t.auth, made.id, new Headers()));
      expect(
        await setPassword(
          t.deps,
          { password: strong, passwordConfirm: strong },
          ctx(unconfirmed),
          account,
        ),
      ).toMatchObject({ ok: false, status: 403 });
      expect((await signIn(t.deps, { email, password: strong }, ctx())).ok).toBe(false);

      // The mailed link confirms the address and signs in: now it is set, audited, told.
      const confirmed = cookie(await signInWithoutMail(t.auth, email, new Headers()));
      const set = await setPassword(
        t.deps,
        { password: strong, passwordConfirm: strong },
        ctx(confirmed),
        { ...account, emailVerified: true },
      );
      expect(set).toMatchObject({ ok: true, redirectTo: '/account' });
      expect((await signIn(t.deps, { email, password: strong }, ctx())).ok).toBe(true);
      expect((await mailsTo(email)).map((mail) => mail.kind)).toContain('password-set');
      expect((await listAudit(t.database.db, 20)).map((entry) => entry.action)).toContain(
        'password-set',
      );
      expect(
        await setPassword(t.deps, { password: strong, passwordConfirm: strong }, ctx(confirmed), {
          ...account,
          emailVerified: true,
        }),
      ).toMatchObject({ ok: false, status: 409 });
    });
  });

  describe('password reset', () => {
    const resetMail = async () =>
      (await mailsTo('hanako@example.jp')).find((m) => m.kind === 'reset-password')!;
    const tokenOf = (mail: { textBody: string | null }) =>
      new URL(linkIn(mail.textBody)).searchParams.get('token')!;
    const reset = (token: string, password: string, passwordConfirm = password) =>
      resetPassword(t.deps, { token, password, passwordConfirm }, ctx());
    const signsInWith = async (password: string) =>
      (await signIn(t.deps, { email: 'hanako@example.jp', password }, ctx())).ok;

    it('answers the same for a registered and an unknown address, mailing only the registered one', async () => {
      const known = await requestPasswordReset(t.deps, { email: 'hanako@example.jp' }, ctx());
      const unknown = await requestPasswordReset(t.deps, { email: 'ghost@example.jp' }, ctx());
      expect(known).toEqual(unknown);
      expect(await mailsTo('ghost@example.jp')).toHaveLength(0);
      expect(linkIn((await resetMail()).textBody)).toMatch(
        /^http:\/\/localhost:3000\/account\/reset-password\?token=/,
      );
    });

    it('caps the reset mails to one address, answering past the cap as before it', async () => {
      startAtWindowStart(ACCOUNT_MAIL_LIMITS.resetPassword.windowMs);
      const email = 'reset-flood@example.jp';
      await verifiedMember(email);
      const answers = [];
      for (let i = 0; i < ACCOUNT_MAIL_LIMITS.resetPassword.max + 2; i++)
        answers.push(await requestPasswordReset(t.deps, { email }, ctx()));
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers[0]).toMatchObject({ ok: true });
      expect((await mailsTo(email)).filter((m) => m.kind === 'reset-password')).toHaveLength(
        ACCOUNT_MAIL_LIMITS.resetPassword.max,
      );
    });

    it('stores the token only as a hash', async () => {
      const token = tokenOf(await resetMail());
      const rows = await t.database.db.select().from(verification);
      expect(rows.some((r) => r.identifier.includes(token) || r.value.includes(token))).toBe(false);
    });

    it('sets the new password once, signs out every session, and the token cannot be used again', async () => {
      expect(await signsInWith(PASSWORD)).toBe(true);
      const token = tokenOf(await resetMail());

      expect(await reset(token, 'hanako')).toMatchObject({ ok: false, status: 400 });
      const mismatch = await reset(token, 'new-sky-password', 'other');
      expect(!mismatch.ok && mismatch.fieldErrors?.passwordConfirm).toBe(
        '確認用のパスワードが一致しません。',
      );

      expect(await reset(token, 'new-sky-password')).toMatchObject({
        ok: true,
        redirectTo: '/login?reset=1',
      });
      const [row] = await t.database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(
        await t.database.db.select().from(session).where(eq(session.userId, row!.id)),
      ).toHaveLength(0);
      expect((await mailsTo('hanako@example.jp')).map((m) => m.kind)).toContain('password-changed');

      // Used once: the same link, and a token that is none, are refused alike.
      for (const used of [token, 'nope'])
        expect(await reset(used, 'third-sky-password'), used).toMatchObject({
          ok: false,
          status: 400,
        });
      expect(await signsInWith('third-sky-password')).toBe(false);
      expect(await signsInWith('new-sky-password')).toBe(true);
      expect((await listAudit(t.database.db, 100)).some((a) => a.action === 'password-reset')).toBe(
        true,
      );
    });
  });

  describe('e-mail change', () => {
    const askChange = (
      member: Awaited<ReturnType<typeof verifiedMember>>,
      newEmail: string,
      password = PASSWORD,
    ) => changeEmail(t.deps, { newEmail, password }, ctx(member.cookie), member.user);

    it('needs the password, mails the new address and tells the old one; nothing changes until the link is followed', async () => {
      const kenji = await verifiedMember('kenji@example.jp', '鈴木 健二');
      const member = kenji.user;
      const wrong = await askChange(kenji, 'kenji.new@example.jp', 'not-mine-at-all');
      expect(!wrong.ok && wrong.fieldErrors?.password).toBe('パスワードが正しくありません。');
      expect(await mailsTo('kenji.new@example.jp')).toHaveLength(0);

      expect(await askChange(kenji, 'Kenji.New@example.jp')).toMatchObject({ ok: true });
      expect((await mailsTo('kenji@example.jp')).map((m) => m.kind)).toContain(
        'change-email-notice',
      );
      const [mail] = await mailsTo('kenji.new@example.jp');
      expect(mail!.kind).toBe('change-email');
      const [still] = await t.database.db.select().from(user).where(eq(user.id, member.id));
      expect(still!.email).toBe('kenji@example.jp');

      const link = linkIn(mail!.textBody);
      await t.auth.handler(new Request(link));
      const [changed] = await t.database.db.select().from(user).where(eq(user.id, member.id));
      expect(changed!.email).toBe('kenji.new@example.jp');
      const [priv] = await t.database.db
        .select()
        .from(userPrivateProfiles)
        .where(eq(userPrivateProfiles.userId, member.id));
      expect(priv!.email).toBe('kenji.new@example.jp');
      expect(
        (await listAudit(t.database.db, 200)).some(
          (a) => a.action === 'email-changed' && a.target === `user:${member.id}`,
        ),
      ).toBe(true);

      // The link again, after the change: refused, nothing changes.
      const again = await t.auth.handler(new Request(link));
      expect(again.headers.get('location')).toContain('error=');
    });

    it('caps the confirmation mails a new address gets, whoever asks, with the same answer', async () => {
      startAtWindowStart(ACCOUNT_MAIL_LIMITS.verification.windowMs);
      const mio = await verifiedMember('mio@example.jp');
      const wanted = 'wanted@example.jp';
      // The address has had its hour's confirmation mails (asked for by other accounts).
      for (let i = 0; i < ACCOUNT_MAIL_LIMITS.verification.max; i++)
        await hit(t.database.db, ACCOUNT_MAIL_LIMITS.verification, wanted);
      expect(await askChange(mio, wanted)).toMatchObject({
        ok: true,
        redirectTo: '/account/change-email?sent=1',
      });
      expect(await mailsTo(wanted)).toHaveLength(0);
    });

    it('gives no sign that the new address is taken', async () => {
      const aya = await verifiedMember('aya@example.jp');
      expect(await askChange(aya, 'hanako@example.jp')).toMatchObject({ ok: true });
      expect(
        (await mailsTo('hanako@example.jp')).filter((m) => m.kind === 'change-email'),
      ).toHaveLength(0);
    });
  });

  describe('profile', () => {
    it('saves the profile fields and refuses values outside the lists', async () => {
      const { cookie, user: member } = await verifiedMember('mika@example.jp', '田中 美香');
      const saved = await editProfile(
        t.deps,
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
      const [pub] = await t.database.db
        .select()
        .from(userPublicProfiles)
        .where(eq(userPublicProfiles.userId, member.id));
      expect(pub).toMatchObject({
        displayName: '田中 美香 (編集)',
        occupation: 'デザイナー',
        interests: ['グラフィック', 'UI・UX'],
      });
      const [row] = await t.database.db.select().from(user).where(eq(user.id, member.id));
      expect(row!.name).toBe('田中 美香 (編集)');
      // The newsletter box is a consent change like any other: logged.
      expect(await consentHistory(t.database.db, member.id)).toMatchObject([
        { action: 'subscribed', method: 'account', page: '/account/edit' },
      ]);

      const bad = await editProfile(
        t.deps,
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
      await grantComplimentary(t.database.db, {
        userId: member.id,
        planName: 'スタンダード',
        status: 'active',
      });
      const state = deriveAuthState(await loadIdentity(t.database.db, member.id));
      expect(state).toMatchObject({
        isPaidUser: true,
        isPartner: false,
        experiencedPaidPlan: false,
      });
      expect(currentPlanName(state)).toBe('スタンダード');
    });

    it('deletes the account after the password, keeping the payment record without the person and purging the pages of their comments', async () => {
      const [row] = await t.database.db
        .select()
        .from(user)
        .where(eq(user.email, 'paid@example.jp'));
      const signedIn = await signIn(
        t.deps,
        { email: 'paid@example.jp', password: PASSWORD },
        ctx(),
      );
      const cookie = cookieOf(signedIn);
      const member: AppUser = {
        id: row!.id,
        email: 'paid@example.jp',
        name: row!.name,
        role: 'member',
        emailVerified: true,
      };
      // A comment of theirs: the item's pages, which show it, are purged once it has gone.
      await t.database.db
        .insert(comments)
        .values({ endpoint: 'posts', contentId: 'commented', userId: member.id, body: '退会前' });
      const changes: ContentChange[] = [];
      const stopListening = onContentChange((change) => changes.push(change));
      const refused = await deleteAccount(
        t.deps,
        { password: 'wrong-password', confirm: 'on' },
        ctx(cookie),
        member,
      );
      expect(refused).toMatchObject({ ok: false, status: 400 });
      const unconfirmed = await deleteAccount(t.deps, { password: PASSWORD }, ctx(cookie), member);
      expect(!unconfirmed.ok && unconfirmed.fieldErrors?.confirm).toBeTruthy();
      expect(await t.database.db.select().from(user).where(eq(user.id, member.id))).toHaveLength(1);

      const done = await deleteAccount(
        t.deps,
        { password: PASSWORD, confirm: 'on' },
        ctx(cookie),
        member,
      );
      expect(done).toMatchObject({ ok: true, redirectTo: '/account/delete?done=1' });
      stopListening();
      expect(await t.database.db.$count(comments, eq(comments.userId, member.id))).toBe(0);
      expect(changes).toContainEqual(
        expect.objectContaining({ endpoint: 'posts', id: 'commented', fields: ['(comments)'] }),
      );
      // Nothing of the member is left: the user, both profiles and every session.
      for (const [table, owner] of [
        [user, user.id],
        [userPublicProfiles, userPublicProfiles.userId],
        [userPrivateProfiles, userPrivateProfiles.userId],
        [session, session.userId],
      ] as const)
        expect(await t.database.db.$count(table, eq(owner, member.id)), owner.name).toBe(0);
      const kept = await t.database.db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.planName, 'スタンダード')));
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ userId: null, status: 'canceled' });
      expect((await mailsTo('paid@example.jp')).map((m) => m.kind)).toContain('account-deleted');
      expect(
        (await listAudit(t.database.db, 300)).some(
          (a) => a.action === 'account-deleted' && a.target === `user:${member.id}`,
        ),
      ).toBe(true);
    });
  });
});
