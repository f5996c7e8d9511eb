import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listAudit } from '@/server/platform/audit/audit-log';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import type { AppUser } from '@/server/features/identity/session-user';
import { appUser } from '@test-support/route-tests';
import { sendMail } from '@/server/platform/mail/mailer';
import { mailOutbox } from '@/server/platform/db/schema';
import { removeResetLinks } from '@/server/platform/mail/outbox';
import { LINK_REMOVED_NOTE, mails } from '@/server/platform/mail/templates';

// The pages as a request renders them: the signed-in user and the database are the test's.
const state = vi.hoisted((): { user: AppUser | null } => ({ user: null }));
vi.mock('@/server/features/identity/session', async () => {
  const { notFound } = await import('next/navigation');
  const requireRole = (...roles: string[]) => {
    if (!state.user || !roles.includes(state.user.role)) notFound();
    return Promise.resolve(state.user);
  };
  return { requireRole, requireStaff: () => requireRole('editor', 'admin') };
});
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(new Headers()) }));

const { default: MailOutboxPage } = await import('./page');
const { default: MailPage } = await import('./[id]/page');

const staff = (role: AppUser['role']): AppUser => appUser(`${role}-1`, role, role);
const RESET_URL = 'http://localhost:3000/account/reset-password?token=page-secret';

async function listHtml(user: AppUser) {
  state.user = user;
  return renderToStaticMarkup(await MailOutboxPage());
}
async function mailHtml(user: AppUser, id: string) {
  state.user = user;
  return renderToStaticMarkup(await MailPage({ params: Promise.resolve({ id }) }));
}

describe('/admin/mail and /admin/mail/[id]', () => {
  let database: Database;
  let resetId: string;
  let noticeId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    useDatabase(database); // what getDb() answers the page
    await sendMail(
      database.db,
      mails.resetPassword('admin@example.jp', '管理者', {
        url: RESET_URL,
        userId: 'admin-1',
        lifetimeSeconds: 3600,
      }),
    );
    await sendMail(database.db, mails.passwordChanged('reader@example.jp', '読者'));
    const rows = await database.db.query.mailOutbox.findMany({ columns: { id: true, kind: true } });
    resetId = rows.find((r) => r.kind === 'reset-password')!.id;
    noticeId = rows.find((r) => r.kind === 'password-changed')!.id;
  });
  afterAll(async () => {
    useDatabase(undefined);
    await database.close();
  });

  it("shows an editor the reset mail's envelope, never its link, and no way to open it", async () => {
    const list = await listHtml(staff('editor'));
    expect(list).toContain('admin@example.jp');
    expect(list).toContain('パスワード再設定のご案内');
    expect(list).toContain('本文は管理者のみ');
    expect(list).not.toContain(`/admin/mail/${resetId}`);
    expect(list).toContain(`/admin/mail/${noticeId}`);

    const detail = await mailHtml(staff('editor'), resetId);
    expect(detail).toContain('本文は管理者だけが読めます');
    expect(detail).not.toContain('token=');
    expect(detail).not.toContain('reset-password?');
    expect(await mailHtml(staff('editor'), noticeId)).toContain('パスワードを変更しました');
  });

  it('names each kind in Japanese, its stored key beside it for support staff', async () => {
    await database.db.insert(mailOutbox).values({
      to: 'old@example.jp',
      subject: '以前の版のメール',
      kind: 'retired-kind',
      status: 'sent',
    });
    const list = await listHtml(staff('editor'));
    expect(list).toMatch(/パスワード変更のお知らせ<code[^>]*>password-changed<\/code>/);
    expect(list).toMatch(/パスワード再設定<code[^>]*>reset-password<\/code>/);
    // A kind this version does not know (an older row) shows its key.
    expect(list).toContain('<code>retired-kind</code>');
    expect(await mailHtml(staff('editor'), noticeId)).toMatch(
      /<dt>種類<\/dt><dd>パスワード変更のお知らせ<code[^>]*>password-changed<\/code><\/dd>/,
    );
  });

  it('answers 404 to a member', async () => {
    await expect(listHtml(staff('member'))).rejects.toThrow('NEXT_HTTP_ERROR_FALLBACK;404');
    await expect(mailHtml(staff('member'), resetId)).rejects.toThrow(
      'NEXT_HTTP_ERROR_FALLBACK;404',
    );
  });

  it('shows an admin the link, audited, and only the note once the link is used', async () => {
    const list = await listHtml(staff('admin'));
    expect(list).toContain(`/admin/mail/${resetId}`);
    expect(list).not.toContain('token=');
    expect((await listAudit(database.db, 50)).some((a) => a.action === 'mail-secret-read')).toBe(
      false,
    );

    const detail = await mailHtml(staff('admin'), resetId);
    expect(detail).toContain('token=page-secret');
    expect(detail).toContain('監査ログに記録されました');
    expect(await listAudit(database.db, 50)).toContainEqual(
      expect.objectContaining({
        action: 'mail-secret-read',
        actor: 'user:admin-1',
        target: `mail:${resetId}`,
      }),
    );

    await removeResetLinks(database.db, 'admin-1');
    const used = await mailHtml(staff('admin'), resetId);
    expect(used).not.toContain('page-secret');
    expect(used).toContain(LINK_REMOVED_NOTE);
    expect(used).toContain('使用済みまたは期限切れのため削除しました');
  });
});
