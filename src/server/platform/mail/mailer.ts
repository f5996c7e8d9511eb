import 'server-only';
import { singleton } from '@/lib/singleton';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import type { Mail } from './mail';
import { keepMail, recordSentMail, removeExpiredLinks } from './outbox';

/**
 * Every mail the site sends goes through here. With SMTP_URL it is sent through that server
 * (only the envelope is kept); without it nodemailer still builds the message, which is kept
 * whole in the outbox table and read by staff at /admin/mail, so the account flows work on a
 * fresh machine. A secret mail (src/server/platform/mail/outbox.ts) is kept for admins only and loses
 * its link once used or expired.
 */

/** One pooled transport per SMTP_URL (tests change it). */
const transports = singleton('smtp-transports', () => new Map<string, Transporter>());

function smtp(url: string): Transporter {
  let transporter = transports.get(url);
  if (!transporter) transports.set(url, (transporter = nodemailer.createTransport(url)));
  return transporter;
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
  // No job runner: each write also sweeps the links that have expired since the last one.
  await removeExpiredLinks(db);
  if (!SMTP_URL) {
    // The same message nodemailer would send, built but not delivered.
    await nodemailer.createTransport({ jsonTransport: true }).sendMail(message);
    await keepMail(db, mail);
    console.log(`[mail] ${mail.kind} to ${maskAddress(mail.to)} kept in the outbox (/admin/mail)`);
    return;
  }
  try {
    await smtp(SMTP_URL).sendMail(message);
    await recordSentMail(db, mail, { status: 'sent' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await recordSentMail(db, mail, { status: 'failed', error: reason });
    console.error(`[mail] ${mail.kind} to ${maskAddress(mail.to)} failed: ${reason}`);
    throw new Error('メールを送信できませんでした。時間をおいてもう一度お試しください。', {
      cause: error,
    });
  }
}

/** Kept for the account-flow tests that import it from here (see outbox.ts). */
export { listOutbox } from './outbox';
