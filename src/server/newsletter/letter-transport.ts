import 'server-only';
import nodemailer from 'nodemailer';
import type { Db } from '@/server/db/client';
import { keepMail } from '@/server/mail/outbox';
import type { LetterTransport, OutgoingLetter } from './delivery';

/**
 * Where letters go: SMTP_URL through nodemailer's pooled transport (a few connections kept
 * open and reused, so thousands of letters do not pay a handshake each), or, without it, the
 * outbox table as every other mail of the site (read by staff at /admin/mail).
 */

export function smtpLetterTransport(
  url: string,
  options: { from: string; maxConnections?: number },
): LetterTransport {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: options.maxConnections ?? 10,
    // Reconnect now and then: some servers cap the messages per connection.
    maxMessages: 500,
  });
  return {
    send: async (letter: OutgoingLetter) => {
      await transport.sendMail({
        from: options.from,
        to: letter.to,
        subject: letter.subject,
        text: letter.text,
        html: letter.html,
        headers: letter.headers,
        // Japanese text is a third the size in base64 and far cheaper to encode than in
        // quoted-printable (every byte of it would be escaped).
        textEncoding: 'base64',
      });
    },
    close: () => transport.close(),
  };
}

export function outboxLetterTransport(db: Db): LetterTransport {
  return {
    send: (letter: OutgoingLetter) =>
      keepMail(db, {
        to: letter.to,
        subject: letter.subject,
        text: letter.text,
        html: letter.html,
        kind: 'newsletter',
        secret: null,
      }),
  };
}
