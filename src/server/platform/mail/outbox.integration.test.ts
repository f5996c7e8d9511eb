import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as EnvModule from '@/env';
import { listAudit } from '@/server/platform/audit/audit-log';
import type { Database } from '@/server/platform/db/client';
import { mailOutbox, user } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import {
  type FlowDeps,
  changeEmail,
  requestPasswordReset,
  resetPassword,
  signIn,
  signUp,
} from '@/server/features/account/account-flows';
import {
  EMAIL_VERIFICATION_SECONDS,
  RESET_PASSWORD_SECONDS,
  createAuth,
} from '@/server/features/identity/auth';
import type { AppUser } from '@/server/features/identity/session-user';
import { sendMail } from './mailer';
import { type OutboxViewer, listOutboxMails, readOutboxMail } from './outbox';
import { LINK_REMOVED_NOTE, mails } from './templates';

// SMTP_URL is switched per test; the rest of the settings are the real defaults.
const settings = vi.hoisted(() => ({ smtpUrl: undefined as string | undefined }));
vi.mock('@/env', async (importOriginal) => {
  const actual = await importOriginal<typeof EnvModule>();
  return { ...actual, env: () => ({ ...actual.env(), SMTP_URL: settings.smtpUrl }) };
});

const BASE = 'http://localhost:3000';
const PASSWORD = 'kumo-no-ue-no-sora';
const admin: OutboxViewer = { role: 'admin', actor: 'user:admin-1', ip: '192.0.2.10' };
const editor: OutboxViewer = { role: 'editor', actor: 'user:editor-1' };
const member: OutboxViewer = { role: 'member', actor: 'user:member-1' };

const TOKEN_LINK = /https?:\/\/\S+[?&]token=[^\s"<&]+/;
const linkIn = (text: string | null) => TOKEN_LINK.exec(text ?? '')?.[0] ?? null;
const tokenOf = (link: string) => new URL(link.replaceAll('&amp;', '&')).searchParams.get('token')!;

/** A tiny SMTP server: accepts every message and keeps its raw text. */
async function startSmtpServer() {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    let data: string[] | null = null;
    socket.write('220 localhost test\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line === '.') {
            messages.push(data.join('\n'));
            data = null;
            socket.write('250 queued\r\n');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 localhost\r\n');
        else if (verb === 'DATA') {
          data = [];
          socket.write('354 end with .\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Quoted-printable parts of a raw message, decoded enough to find a link in them. */
const decodeQuotedPrintable = (raw: string) =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

describe('the mail outbox keeps secret mails for admins, and only while their links work', () => {
  let database: Database;
  let deps: FlowDeps;
  let ip = 0;
  const ctx = (cookie?: string) => ({
    headers: new Headers(cookie ? { cookie } : {}),
    ip: `198.51.100.${++ip}`,
  });
  const newest = async (to: string, kind: string) =>
    (await listOutboxMails(database.db, admin, { to, limit: 50 })).find((m) => m.kind === kind)!;
  /** The stored row itself, read without any sweep. */
  const storedRow = async (id: string) =>
    (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;

  async function verifiedMember(email: string) {
    await signUp(
      deps,
      { email, password: PASSWORD, passwordConfirm: PASSWORD, displayName: '会員', consent: 'on' },
      ctx(),
    );
    const mail = await readOutboxMail(database.db, admin, (await newest(email, 'verify-email')).id);
    await deps.auth.handler(new Request(linkIn(mail!.text)!));
    const [row] = await database.db.select().from(user).where(eq(user.email, email));
    return row!;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    deps = {
      db: database.db,
      auth: createAuth(database.db, { secret: 'x'.repeat(32), baseURL: BASE }),
    };
  });
  afterEach(() => {
    vi.useRealTimers();
    settings.smtpUrl = undefined;
  });
  afterAll(async () => {
    await database.close();
  });

  it('marks the token mails secret in the template, with their lifetime and a copy without the link', () => {
    const link = { url: `${BASE}/account/reset-password?token=t0k3n`, userId: 'u1' };
    const reset = mails.resetPassword('a@example.jp', 'A', { ...link, lifetimeSeconds: 3600 });
    expect(reset.secret).toMatchObject({ userId: 'u1' });
    expect(reset.secret!.expiresAt.getTime() - Date.now()).toBeGreaterThan(3590_000);
    expect(reset.text).toContain('token=t0k3n');
    expect(reset.text).toContain('リンクの有効期限は 1 時間で');
    expect(reset.secret!.redacted.text).not.toContain('t0k3n');
    expect(reset.secret!.redacted.html).not.toContain('t0k3n');
    expect(reset.secret!.redacted.text).toContain(LINK_REMOVED_NOTE);
    const verify = mails.verifyEmail('a@example.jp', 'A', { ...link, lifetimeSeconds: 86400 });
    expect(verify.secret).not.toBeNull();
    expect(verify.text).toContain('リンクの有効期限は 24 時間です');
    expect(
      mails.changeEmailVerify('a@example.jp', 'A', { ...link, lifetimeSeconds: 86400 }).secret,
    ).not.toBeNull();
    expect(mails.passwordChanged('a@example.jp', 'A').secret).toBeNull();
    expect(mails.alreadyRegistered('a@example.jp', `${BASE}/login`, `${BASE}/x`).secret).toBeNull();
  });

  it('an editor sees that a reset mail exists but never its link; an admin reads it, and that is audited', async () => {
    await verifiedMember('boss@example.jp');
    // What the editor of the incident did: ask for a reset of someone else's account.
    await requestPasswordReset(deps, { email: 'boss@example.jp' }, ctx());
    const { id } = await newest('boss@example.jp', 'reset-password');

    const listed = await listOutboxMails(database.db, editor, { bodies: true });
    const entry = listed.find((m) => m.id === id)!;
    expect(entry).toMatchObject({
      to: 'boss@example.jp',
      kind: 'reset-password',
      secret: true,
      withheld: true,
      readable: false,
      text: null,
      html: null,
    });
    expect(entry.subject).toContain('パスワード再設定のご案内');
    const asEditor = await readOutboxMail(database.db, editor, id);
    expect(asEditor).toMatchObject({ withheld: true, text: null, html: null });
    expect(JSON.stringify([listed, asEditor])).not.toMatch(/token=/);
    // Not staff: nothing at all.
    expect(await listOutboxMails(database.db, member, {})).toEqual([]);
    expect(await readOutboxMail(database.db, member, id)).toBeNull();
    const readsOf = async () =>
      (await listAudit(database.db, 200)).filter(
        (a) => a.action === 'mail-secret-read' && a.target === `mail:${id}`,
      );
    expect(await readsOf()).toEqual([]);

    const asAdmin = await readOutboxMail(database.db, admin, id);
    expect(asAdmin).toMatchObject({ readable: true, withheld: false, link: 'live' });
    expect(linkIn(asAdmin!.text)).toMatch(
      /^http:\/\/localhost:3000\/account\/reset-password\?token=/,
    );
    expect(asAdmin!.html).toContain('/account/reset-password?token=');
    const [audit, ...more] = await readsOf();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor: 'user:admin-1', target: `mail:${id}`, ip: '192.0.2.10' });
    expect(audit!.detail).toMatchObject({ kind: 'reset-password', link: 'live' });
  });

  it('drops every reset link of the account from the kept mails once a reset is used', async () => {
    await requestPasswordReset(deps, { email: 'boss@example.jp' }, ctx());
    const resets = (
      await listOutboxMails(database.db, admin, { to: 'boss@example.jp', bodies: true })
    ).filter((m) => m.kind === 'reset-password');
    expect(resets).toHaveLength(2);
    const link = linkIn(resets[0]!.text)!;
    const done = await resetPassword(
      deps,
      { token: tokenOf(link), password: 'new-sky-password', passwordConfirm: 'new-sky-password' },
      ctx(),
    );
    expect(done).toMatchObject({ ok: true });

    for (const { id } of resets) {
      const mail = await readOutboxMail(database.db, admin, id);
      expect(mail).toMatchObject({ link: 'removed' });
      expect(mail!.text).toContain(LINK_REMOVED_NOTE);
      expect(mail!.html).toContain(LINK_REMOVED_NOTE);
      // Nowhere in the row: not in the body, not in a column left behind.
      expect(JSON.stringify(await storedRow(id))).not.toMatch(/token=/);
    }
  });

  it('drops the verification and e-mail change links once the address is verified', async () => {
    const account = await verifiedMember('kenji@example.jp');
    const verify = await newest('kenji@example.jp', 'verify-email');
    expect(verify).toMatchObject({ secret: true, link: 'removed' });
    expect(JSON.stringify(await storedRow(verify.id))).not.toMatch(/token=/);

    const signedIn = await signIn(deps, { email: 'kenji@example.jp', password: PASSWORD }, ctx());
    const cookie = signedIn.ok ? signedIn.setCookies!.map((c) => c.split(';')[0]).join('; ') : '';
    const appUser: AppUser = {
      id: account.id,
      email: account.email,
      name: account.name,
      role: 'member',
      emailVerified: true,
    };
    await changeEmail(
      deps,
      { newEmail: 'kenji.new@example.jp', password: PASSWORD },
      ctx(cookie),
      appUser,
    );
    const change = await newest('kenji.new@example.jp', 'change-email');
    expect(change).toMatchObject({ secret: true, link: 'live' });
    const link = linkIn((await readOutboxMail(database.db, admin, change.id))!.text)!;
    await deps.auth.handler(new Request(link));
    const [changed] = await database.db.select().from(user).where(eq(user.id, account.id));
    expect(changed!.email).toBe('kenji.new@example.jp');
    expect(await readOutboxMail(database.db, admin, change.id)).toMatchObject({ link: 'removed' });
    expect(JSON.stringify(await storedRow(change.id))).not.toMatch(/token=/);
  });

  it('drops the links whose lifetime has passed: on read, and in the sweep of the next write', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    // Both links live an hour: the reset link is mailed half an hour before the verification link.
    await requestPasswordReset(deps, { email: 'kenji.new@example.jp' }, ctx());
    vi.setSystemTime(Date.now() + 30 * 60_000);
    await signUp(
      deps,
      {
        email: 'late@example.jp',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        displayName: '遅い',
        consent: 'on',
      },
      ctx(),
    );
    const verify = await newest('late@example.jp', 'verify-email');
    const reset = await newest('kenji.new@example.jp', 'reset-password');
    expect([verify.link, reset.link]).toEqual(['live', 'live']);

    // The reset link's hour is up; the verification link has half an hour left.
    vi.setSystemTime(Date.now() + RESET_PASSWORD_SECONDS * 1000 - 30 * 60_000 + 1000);
    const afterHour = await readOutboxMail(database.db, admin, reset.id);
    expect(afterHour).toMatchObject({ link: 'removed' });
    expect(afterHour!.text).toContain(LINK_REMOVED_NOTE);
    expect(linkIn(afterHour!.text)).toBeNull();
    expect((await readOutboxMail(database.db, admin, verify.id))!.link).toBe('live');

    // No read this time: the next mail sent sweeps it.
    vi.setSystemTime(Date.now() + EMAIL_VERIFICATION_SECONDS * 1000);
    expect(linkIn((await storedRow(verify.id)).textBody)).not.toBeNull();
    await sendMail(database.db, mails.passwordChanged('someone@example.jp', '誰か'));
    const swept = await storedRow(verify.id);
    expect(swept.linkRemovedAt).not.toBeNull();
    expect(JSON.stringify(swept)).not.toMatch(/token=/);
    expect(swept.textBody).toContain(LINK_REMOVED_NOTE);
  });

  it('with SMTP configured, sends the link and keeps no secret at all', async () => {
    const smtp = await startSmtpServer();
    try {
      settings.smtpUrl = smtp.url;
      await requestPasswordReset(deps, { email: 'kenji.new@example.jp' }, ctx());
      expect(smtp.messages).toHaveLength(1);
      const sent = linkIn(decodeQuotedPrintable(smtp.messages[0]!));
      expect(sent).toMatch(/^http:\/\/localhost:3000\/account\/reset-password\?token=/);
      const token = tokenOf(sent!);

      const entry = (await listOutboxMails(database.db, admin, { to: 'kenji.new@example.jp' }))[0]!;
      expect(entry).toMatchObject({
        kind: 'reset-password',
        status: 'sent',
        secret: true,
        readable: false,
      });
      const row = await storedRow(entry.id);
      expect(row).toMatchObject({
        textBody: null,
        htmlBody: null,
        redactedText: null,
        redactedHtml: null,
      });
      const everything = JSON.stringify(await database.db.select().from(mailOutbox));
      expect(everything).not.toContain(token);
      expect((await readOutboxMail(database.db, admin, entry.id))!.text).toBeNull();
    } finally {
      await smtp.close();
    }
  });
});
