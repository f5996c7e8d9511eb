import 'server-only';
import { desc, eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { mailOutbox } from '@/server/db/schema';

/**
 * Every mail the site sends goes through here. With SMTP_URL it is sent through that server
 * (only the envelope is kept); without it nodemailer still builds the message, which is kept
 * whole in the outbox table and read by staff at /admin/mail, so the account flows work on a
 * fresh machine.
 */

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the mail is for, e.g. `verify-email`: shown in the outbox. */
  kind: string;
};

const holder = globalThis as typeof globalThis & { __axisSmtp?: Transporter };

function smtp(url: string): Transporter {
  holder.__axisSmtp ??= nodemailer.createTransport(url);
  return holder.__axisSmtp;
}

export function mailFrom(): string {
  const { MAIL_FROM, SITE_NAME, SITE_URL } = env();
  return MAIL_FROM ?? `"${SITE_NAME}" <no-reply@${new URL(SITE_URL).hostname}>`;
}

/** `t***@example.com`: enough to follow a log line, not enough to harvest addresses. */
export function maskAddress(address: string): string {
  const [local = '', domain = ''] = address.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export async function sendMail(db: Db, mail: Mail): Promise<void> {
  const { SMTP_URL } = env();
  const message = {
    from: mailFrom(),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
  if (!SMTP_URL) {
    // The same message nodemailer would send, built but not delivered.
    await nodemailer.createTransport({ jsonTransport: true }).sendMail(message);
    await db.insert(mailOutbox).values({
      to: mail.to,
      subject: mail.subject,
      kind: mail.kind,
      status: 'stored',
      textBody: mail.text,
      htmlBody: mail.html,
    });
    console.log(`[mail] ${mail.kind} to ${maskAddress(mail.to)} kept in the outbox (/admin/mail)`);
    return;
  }
  try {
    await smtp(SMTP_URL).sendMail(message);
    await db
      .insert(mailOutbox)
      .values({ to: mail.to, subject: mail.subject, kind: mail.kind, status: 'sent' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await db.insert(mailOutbox).values({
      to: mail.to,
      subject: mail.subject,
      kind: mail.kind,
      status: 'failed',
      error: reason,
    });
    console.error(`[mail] ${mail.kind} to ${maskAddress(mail.to)} failed: ${reason}`);
    throw new Error('メールを送信できませんでした。時間をおいてもう一度お試しください。', {
      cause: error,
    });
  }
}

export type OutboxMail = typeof mailOutbox.$inferSelect;

export async function listOutbox(db: Db, options: { to?: string; limit?: number } = {}) {
  return db
    .select()
    .from(mailOutbox)
    .where(options.to ? eq(mailOutbox.to, options.to) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(options.limit ?? 100);
}

export async function getOutboxMail(db: Db, id: string): Promise<OutboxMail | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row ?? null;
}
