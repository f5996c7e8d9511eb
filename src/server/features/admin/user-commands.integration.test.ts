import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { currentPlanName, deriveAuthState } from '@/lib/auth-state';
import { listAudit } from '@/server/platform/audit/audit-log';
import { syncCatalogue } from '@/server/features/billing/catalogue';
import type { Database } from '@/server/platform/db/client';
import {
  account,
  cmsContents,
  user,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { MONTHLY_PLAN, YEARLY_PLAN } from '@test-support/plans';
import { signIn } from '@/server/features/account/account-flows';
import { createAuth } from '@/server/features/identity/auth';
import { sendMail } from '@/server/platform/mail/mailer';
import { removeResetLinks } from '@/server/platform/mail/outbox';
import { LINK_REMOVED_NOTE, mails } from '@/server/platform/mail/templates';
import { loadIdentity } from '@/server/features/profiles/profiles';
import { UsageError, type RawArgs } from './command';
import { helpText, runAdminCommand } from './commands';

const PASSWORD = 'kumo-no-ue-no-sora';

describe('admin user commands', () => {
  let database: Database;
  const run = (name: string, args: RawArgs) =>
    runAdminCommand({ database, actor: 'cli:test' }, name, args);
  const userId = async (email: string) =>
    (await database.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id;
  const userCount = async () => (await database.db.select({ n: count() }).from(user))[0]!.n;
  const lastAudit = async (action: string) =>
    (await listAudit(database.db, 100)).find((r) => r.action === action);
  const authState = async (email: string) =>
    deriveAuthState(await loadIdentity(database.db, (await userId(email))!));

  beforeAll(async () => {
    // The commands sign as the site does; keep the secret out of ./.data.
    vi.stubEnv('APP_SECRET', 's'.repeat(40));
    database = await createTestDatabase();
    // The plan catalogue grant-plan chooses from (the sandbox's two plans).
    await syncCatalogue(database.db);
  });
  afterAll(async () => {
    await database.close();
    vi.unstubAllEnvs();
  });

  it('lists the new commands in the help', () => {
    const help = helpText().join('\n');
    for (const name of [
      'create-user',
      'set-role',
      'set-partner',
      'list-users',
      'newsletter-subscribers',
      'grant-plan',
      'revoke-plan',
      'mail-outbox',
    ])
      expect(help).toContain(name);
  });

  it('creates a verified user who can sign in, with both profile records', async () => {
    const lines = await run('create-user', {
      email: 'Editor@Example.jp',
      password: PASSWORD,
      role: 'editor',
    });
    expect(lines[0]).toContain('editor@example.jp');
    const id = await userId('editor@example.jp');
    expect(id).toBeDefined();

    const [row] = await database.db.select().from(user).where(eq(user.id, id!));
    expect(row).toMatchObject({ emailVerified: true, role: 'editor', name: 'editor' });
    const [pub] = await database.db
      .select()
      .from(userPublicProfiles)
      .where(eq(userPublicProfiles.userId, id!));
    const [priv] = await database.db
      .select()
      .from(userPrivateProfiles)
      .where(eq(userPrivateProfiles.userId, id!));
    expect(pub).toMatchObject({ displayName: 'editor', partnerId: '' });
    expect(priv).toMatchObject({ email: 'editor@example.jp' });
    const [cred] = await database.db
      .select()
      .from(account)
      .where(and(eq(account.userId, id!), eq(account.providerId, 'credential')));
    expect(cred?.password).toBeTruthy();
    expect(cred?.password).not.toContain(PASSWORD);

    const deps = {
      db: database.db,
      auth: createAuth(database.db, { secret: 'x'.repeat(32), baseURL: 'http://localhost:3000' }),
    };
    const result = await signIn(
      deps,
      { email: 'editor@example.jp', password: PASSWORD },
      { headers: new Headers(), ip: '192.0.2.1' },
    );
    expect(result.ok).toBe(true);

    const audit = await lastAudit('user-created');
    expect(audit).toMatchObject({ actor: 'cli:test', target: `user:${id}` });
    expect(audit?.detail).toMatchObject({ email: 'editor@example.jp', role: 'editor' });
    expect(JSON.stringify(audit?.detail)).not.toContain(PASSWORD);
  });

  it('uses --name and defaults the role to member', async () => {
    await run('create-user', {
      email: 'writer@example.jp',
      password: PASSWORD,
      name: '書き手 花子',
    });
    const [row] = await database.db.select().from(user).where(eq(user.email, 'writer@example.jp'));
    expect(row).toMatchObject({ name: '書き手 花子', role: 'member', emailVerified: true });
  });

  it('refuses a duplicate e-mail, a weak password and a bad address, creating nothing', async () => {
    const before = await userCount();
    await expect(
      run('create-user', { email: 'EDITOR@example.jp', password: 'another-long-one' }),
    ).rejects.toThrow(/すでにいます/);
    await expect(
      run('create-user', { email: 'weak@example.jp', password: 'short' }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      run('create-user', { email: 'weak@example.jp', password: 'password123' }),
    ).rejects.toThrow(/--password/);
    await expect(
      run('create-user', { email: 'weak@example.jp', password: 'weak@example.jp' }),
    ).rejects.toThrow(/--password/);
    await expect(
      run('create-user', { email: 'not-an-address', password: PASSWORD }),
    ).rejects.toThrow(/--email/);
    await expect(
      run('create-user', { email: 'x@example.jp', password: PASSWORD, role: 'owner' }),
    ).rejects.toThrow(/--role/);
    expect(await userCount()).toBe(before);
    expect(await userId('weak@example.jp')).toBeUndefined();
  });

  it('changes the role and audits from and to', async () => {
    const lines = await run('set-role', { email: 'writer@example.jp', role: 'admin' });
    expect(lines[0]).toContain('member');
    expect(lines[0]).toContain('admin');
    const [row] = await database.db
      .select({ role: user.role })
      .from(user)
      .where(eq(user.email, 'writer@example.jp'));
    expect(row?.role).toBe('admin');
    const audit = await lastAudit('role-changed');
    expect(audit).toMatchObject({
      actor: 'cli:test',
      target: `user:${await userId('writer@example.jp')}`,
      detail: { from: 'member', to: 'admin' },
    });
    await run('set-role', { email: 'writer@example.jp', role: 'member' });
  });

  it('refuses unknown e-mail addresses in Japanese', async () => {
    for (const [name, args] of [
      ['set-role', { role: 'admin' }],
      ['set-partner', { partner: 'none' }],
      ['grant-plan', { plan: 'Premium' }],
      ['revoke-plan', {}],
    ] as const) {
      const call = run(name, { email: 'nobody@example.jp', ...args });
      await expect(call).rejects.toBeInstanceOf(UsageError);
      await expect(call).rejects.toThrow('メールアドレス nobody@example.jp のユーザーはいません。');
    }
  });

  it('sets a partner only when it is a published partners item, and clears it', async () => {
    const email = 'writer@example.jp';
    const partnerOf = async () =>
      (
        await database.db
          .select({ partnerId: userPublicProfiles.partnerId })
          .from(userPublicProfiles)
          .where(eq(userPublicProfiles.userId, (await userId(email))!))
      )[0]?.partnerId;

    await expect(run('set-partner', { email, partner: 'acme' })).rejects.toThrow(/acme/);
    const now = new Date();
    await database.db.insert(cmsContents).values([
      {
        endpoint: 'partners',
        id: 'acme',
        status: 'PUBLISH',
        data: { name: 'アクメ株式会社' },
        createdAt: now,
        updatedAt: now,
        publishedAt: now,
      },
      {
        endpoint: 'partners',
        id: 'draft-co',
        status: 'DRAFT',
        data: null,
        draftData: { name: '下書き' },
        createdAt: now,
        updatedAt: now,
      },
      {
        endpoint: 'writers',
        id: 'not-a-partner',
        status: 'PUBLISH',
        data: { name: '書き手' },
        createdAt: now,
        updatedAt: now,
        publishedAt: now,
      },
    ]);
    await expect(run('set-partner', { email, partner: 'draft-co' })).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(run('set-partner', { email, partner: 'not-a-partner' })).rejects.toBeInstanceOf(
      UsageError,
    );
    expect(await partnerOf()).toBe('');

    const lines = await run('set-partner', { email, partner: 'acme' });
    expect(lines[0]).toContain('アクメ株式会社');
    expect(await partnerOf()).toBe('acme');
    expect((await authState(email)).isPartner).toBe(true);
    expect(await lastAudit('partner-changed')).toMatchObject({
      detail: { from: '', to: 'acme' },
    });

    await run('set-partner', { email, partner: 'none' });
    expect(await partnerOf()).toBe('');
    expect(await lastAudit('partner-changed')).toMatchObject({
      detail: { from: 'acme', to: '' },
    });
    await run('set-partner', { email, partner: 'acme' });
    await run('set-partner', { email, partner: '' });
    expect(await partnerOf()).toBe('');
  });

  it('grants and revokes complimentary plans', async () => {
    const email = 'editor@example.jp';
    expect((await authState(email)).isPaidUser).toBe(false);

    const typed = run('grant-plan', { email, plan: 'Premium' });
    await expect(typed).rejects.toBeInstanceOf(UsageError);
    await expect(typed).rejects.toThrow(
      `プラン「Premium」はプランの一覧にありません。次のどれかを選んでください：monthly（${MONTHLY_PLAN.name}）、yearly（${YEARLY_PLAN.name}）`,
    );
    expect((await authState(email)).isPaidUser).toBe(false);
    expect(await lastAudit('plan-granted')).toBeUndefined();

    const granted = await run('grant-plan', { email, plan: 'monthly' });
    expect(granted[0]).toContain('期限なし');
    let state = await authState(email);
    expect(state.isPaidUser).toBe(true);
    expect(currentPlanName(state)).toBe(MONTHLY_PLAN.name);
    expect(state.currentSubscriptionData?.status).toBe('active');
    expect(state.currentSubscriptionData?.current_period_end).toBeNull();
    expect(await lastAudit('plan-granted')).toMatchObject({
      actor: 'cli:test',
      target: `user:${await userId(email)}`,
      detail: { plan: MONTHLY_PLAN.name, planKey: 'monthly', status: 'active', days: null },
    });

    expect((await run('list-users', {})).find((l) => l.startsWith(email))).toContain(
      `plan=${MONTHLY_PLAN.name}`,
    );

    const revoked = await run('revoke-plan', { email });
    expect(revoked[0]).toContain('1 件');
    state = await authState(email);
    expect(state.isPaidUser).toBe(false);
    expect(await lastAudit('plan-revoked')).toMatchObject({ detail: { count: 1 } });

    const none = await run('revoke-plan', { email });
    expect(none[0]).toContain('0 件');

    // The exact name is taken as well as the key.
    await run('grant-plan', { email, plan: YEARLY_PLAN.name, status: 'trialing', days: '14' });
    state = await authState(email);
    expect(currentPlanName(state)).toBe(YEARLY_PLAN.name);
    expect(state.currentSubscriptionData?.status).toBe('trialing');
    const end = Date.parse(state.currentSubscriptionData?.current_period_end ?? '');
    expect(end - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    expect(end - Date.now()).toBeLessThanOrEqual(14 * 86_400_000);

    await expect(run('grant-plan', { email, plan: 'X', days: '0' })).rejects.toThrow(/--days/);
    // Digits only, as the admin screen's form: nothing else is read as a number of days.
    for (const days of ['1e3', '0x10', '7.0', '-5'])
      await expect(run('grant-plan', { email, plan: 'X', days }), days).rejects.toThrow(
        '--days: 日数は半角数字で入力してください（空欄で期限なし）。',
      );
    await expect(run('grant-plan', { email, plan: 'X', status: 'canceled' })).rejects.toThrow(
      /--status/,
    );
  });

  it('lists users newest first with role, verification, partner and plan', async () => {
    const lines = await run('list-users', {});
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^writer@example\.jp {2}書き手 花子 {2}member {2}確認済み {2}partner=- {2}plan=- {2}\d{4}-\d{2}-\d{2}$/,
    );
    expect(lines[1]).toContain('editor@example.jp  editor  editor  確認済み');
    expect(lines[1]).toContain(`plan=${YEARLY_PLAN.name}`);
    expect(await run('list-users', { limit: '1' })).toHaveLength(1);
  });

  it('shows the mail outbox, with bodies on --full, auditing the secret ones it prints', async () => {
    expect(await run('mail-outbox', {})).toEqual(['メールはまだありません。']);
    await sendMail(
      database.db,
      mails.verifyEmail('reader@example.jp', '読者', {
        url: 'http://localhost:3000/api/auth/verify-email?token=abc',
        userId: 'reader-id',
        lifetimeSeconds: 24 * 3600,
      }),
    );
    await new Promise((r) => setTimeout(r, 5));
    await sendMail(
      database.db,
      mails.resetPassword('other@example.jp', '別の人', {
        url: 'http://localhost:3000/account/reset-password?token=def',
        userId: 'other-id',
        lifetimeSeconds: 3600,
      }),
    );

    const short = await run('mail-outbox', {});
    expect(short).toHaveLength(2);
    expect(short[0]).toMatch(
      /reset-password {2}to=other@example\.jp {2}【.+】パスワード再設定のご案内/,
    );
    expect(short[0]).toMatch(/\[リンク有効: \S+ まで\]$/);
    expect(short[1]).toContain('verify-email  to=reader@example.jp');
    expect(short.join('\n')).not.toContain('token=');

    const full = await run('mail-outbox', { to: 'Reader@example.jp', full: true });
    expect(full[0]).toContain('to=reader@example.jp');
    expect(full.join('\n')).toContain('http://localhost:3000/api/auth/verify-email?token=abc');
    expect(full.join('\n')).not.toContain('token=def');
    const reads = (await listAudit(database.db, 100)).filter(
      (a) => a.action === 'mail-secret-read',
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ actor: 'cli:test' });
    expect(await run('mail-outbox', { limit: '1' })).toHaveLength(1);
    expect(await run('mail-outbox', { to: 'nobody@example.jp' })).toEqual([
      'nobody@example.jp 宛てのメールはありません。',
    ]);
  });

  it('never prints a link once it was used or has expired', async () => {
    await removeResetLinks(database.db, 'other-id');
    const used = await run('mail-outbox', { to: 'other@example.jp', full: true });
    expect(used[0]).toContain('[リンク削除済み]');
    expect(used.join('\n')).not.toContain('token=def');
    expect(used.join('\n')).toContain(LINK_REMOVED_NOTE);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 3600 * 1000 + 1000 });
    try {
      const expired = await run('mail-outbox', { to: 'reader@example.jp', full: true });
      expect(expired[0]).toContain('[リンク削除済み]');
      expect(expired.join('\n')).not.toContain('token=abc');
      expect(expired.join('\n')).toContain(LINK_REMOVED_NOTE);
    } finally {
      vi.useRealTimers();
    }
  });

  it('exports the readers who asked for the newsletter as CSV, verified addresses only', async () => {
    await run('create-user', {
      email: 'news-yes@example.jp',
      password: PASSWORD,
      name: '山田, "編集"',
    });
    await run('create-user', { email: 'news-no@example.jp', password: PASSWORD });
    await run('create-user', { email: 'news-unverified@example.jp', password: PASSWORD });
    const optIn = async (email: string) =>
      database.db
        .update(userPrivateProfiles)
        .set({ newsletter: true })
        .where(eq(userPrivateProfiles.userId, (await userId(email))!));
    await optIn('news-yes@example.jp');
    await optIn('news-unverified@example.jp');
    await database.db
      .update(user)
      .set({ emailVerified: false })
      .where(eq(user.email, 'news-unverified@example.jp'));

    const lines = await run('newsletter-subscribers', {});
    expect(lines[0]).toBe('email,name,registered_at');
    const rows = lines.slice(1).filter((l) => l.includes('news-'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^news-yes@example\.jp,"山田, ""編集""",\d{4}-\d\d-\d\dT/);
  });

  it('writes no spreadsheet formula into the newsletter CSV, whatever a reader is called', async () => {
    // A cell starting with = + - @ (or their full-width forms, or a tab) is a formula to Excel,
    // LibreOffice and Numbers: it is written with a leading apostrophe, so it stays text.
    const names = {
      'formula-eq@example.jp': '=HYPERLINK("https://evil.example","開く")',
      'formula-plus@example.jp': '+1+2',
      'formula-minus@example.jp': '-2+3',
      'formula-at@example.jp': '@SUM(1)',
      'formula-wide@example.jp': '＝１＋２',
    };
    for (const [email, name] of Object.entries(names)) {
      await run('create-user', { email, password: PASSWORD, name });
      await database.db
        .update(userPrivateProfiles)
        .set({ newsletter: true })
        .where(eq(userPrivateProfiles.userId, (await userId(email))!));
    }
    const lines = await run('newsletter-subscribers', {});
    const nameCell = (email: string) =>
      lines
        .find((line) => line.startsWith(`${email},`))
        ?.slice(email.length + 1)
        .replace(/,[^,]*$/, '');
    expect(nameCell('formula-eq@example.jp')).toBe(
      `"'=HYPERLINK(""https://evil.example"",""開く"")"`,
    );
    expect(nameCell('formula-plus@example.jp')).toBe("'+1+2");
    expect(nameCell('formula-minus@example.jp')).toBe("'-2+3");
    expect(nameCell('formula-at@example.jp')).toBe("'@SUM(1)");
    expect(nameCell('formula-wide@example.jp')).toBe("'＝１＋２");
  });
});
