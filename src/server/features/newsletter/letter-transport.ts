import 'server-only';
import nodemailer from 'nodemailer';
import type { Db } from '@/server/platform/db/client';
import { keepMail } from '@/server/platform/mail/outbox';
import type { LetterTransport, OutgoingLetter } from './delivery';

/**
 * Where letters go: SMTP_URL through nodemailer's pooled transport (a few connections kept
 * open and reused, so thousands of letters do not pay a handshake each), or, without it, the
 * outbox table as every other mail of the site (read by staff at /admin/mail).
 */

/**
 * The envelope sender of one letter: `bounces+<letter id>@domain` for the bounce address
 * `bounces@domain` (VERP), so a bounce names the letter it is about in the very address it is
 * delivered to, whatever the receiving system put in it (docs/operations.md: the mail server
 * pipes that address's mail into `npm run admin -- newsletter-bounce`).
 */
export function letterEnvelopeSender(bounceAddress: string, letterId: string): string {
  const at = bounceAddress.lastIndexOf('@');
  return `${bounceAddress.slice(0, at)}+${letterId}${bounceAddress.slice(at)}`;
}

export function smtpLetterTransport(
  url: string,
  options: { from: string; maxConnections?: number; bounceAddress?: string },
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
      const bounces = options.bounceAddress;
      await transport.sendMail({
        from: options.from,
        to: letter.to,
        ...(bounces && letter.letterId
          ? { envelope: { from: letterEnvelopeSender(bounces, letter.letterId), to: letter.to } }
          : {}),
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
