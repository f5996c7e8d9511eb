import 'server-only';
import type { MailKind } from './kinds';

/**
 * A mail as the templates build it, the mailer sends it and the outbox keeps it: its own
 * module so that those three do not import each other in a circle.
 */

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the mail is for, e.g. `verify-email`: stored, and named in the outbox (kinds.ts). */
  kind: MailKind;
  /** Set by the template when the mail carries a token link (templates.ts TokenLink), else null. */
  secret: MailSecret | null;
};

export type MailSecret = {
  /** The account the token acts for. */
  userId: string;
  /** When the token stops working. */
  expiresAt: Date;
  /** The same mail with the link replaced by a note: what is kept once the link is spent. */
  redacted: { text: string; html: string };
};
