import 'server-only';
import { type SQL, and, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { mailOutbox } from '@/server/platform/db/schema';
import { type Role, STAFF_ROLES } from '@/lib/identity/roles';
import type { Mail } from './mail';
import { TOKEN_MAIL_KINDS } from './templates';

/**
 * The outbox table and who reads what of it. A secret mail (a token link: password reset,
 * address verification) lets whoever reads it act as the account, so its body is for admins
 * only and every read of it is audited; an editor sees that it exists, to whom and its subject.
 * Its link leaves the kept body once used (auth.ts) or expired (swept on every read and write).
 */

export type OutboxViewer = {
  role: Role;
  /** For the audit record: `user:<id>` or `cli:<os user>`. */
  actor: string;
  ip?: string | null;
};

/** An editor who could read reset links could take over an admin's account. */
export function mayReadSecretMail(role: Role): boolean {
  return role === 'admin';
}

export type OutboxEntry = {
  id: string;
  createdAt: Date;
  to: string;
  subject: string;
  kind: string;
  status: string;
  error: string | null;
  secret: boolean;
  /** A secret mail's kept link: `live` until used or expired, then `removed`; null if none was kept. */
  link: 'live' | 'removed' | null;
  linkExpiresAt: Date | null;
  /** A body was kept (no SMTP) and this viewer may read it. */
  readable: boolean;
  /** A body was kept but is for admins only. */
  withheld: boolean;
};

/** An entry with its body: null where none was kept or the viewer may not read it. */
export type OutboxMail = OutboxEntry & { text: string | null; html: string | null };

const envelope = {
  id: mailOutbox.id,
  createdAt: mailOutbox.createdAt,
  to: mailOutbox.to,
  subject: mailOutbox.subject,
  kind: mailOutbox.kind,
  status: mailOutbox.status,
  error: mailOutbox.error,
  secret: mailOutbox.secret,
  linkExpiresAt: mailOutbox.linkExpiresAt,
  linkRemovedAt: mailOutbox.linkRemovedAt,
  hasBody: sql<boolean>`(${mailOutbox.textBody} IS NOT NULL OR ${mailOutbox.htmlBody} IS NOT NULL)`,
};

const noBody = { text: sql<string | null>`NULL`, html: sql<string | null>`NULL` };

/** The body as this viewer may see it: for an editor a secret body never leaves the database. */
function bodyFor(viewer: OutboxViewer) {
  if (mayReadSecretMail(viewer.role))
    return { text: mailOutbox.textBody, html: mailOutbox.htmlBody };
  return {
    text: sql<
      string | null
    >`CASE WHEN ${mailOutbox.secret} THEN NULL ELSE ${mailOutbox.textBody} END`,
    html: sql<
      string | null
    >`CASE WHEN ${mailOutbox.secret} THEN NULL ELSE ${mailOutbox.htmlBody} END`,
  };
}

type Row = Omit<OutboxEntry, 'link' | 'readable' | 'withheld'> & {
  linkRemovedAt: Date | null;
  hasBody: boolean;
  text: string | null;
  html: string | null;
};

function toMail(row: Row, viewer: OutboxViewer): OutboxMail {
  const mayRead = !row.secret || mayReadSecretMail(viewer.role);
  return {
    id: row.id,
    createdAt: row.createdAt,
    to: row.to,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    error: row.error,
    secret: row.secret,
    link: !row.secret ? null : row.linkRemovedAt ? 'removed' : row.linkExpiresAt ? 'live' : null,
    linkExpiresAt: row.linkExpiresAt,
    readable: row.hasBody && mayRead,
    withheld: row.hasBody && !mayRead,
    text: mayRead ? row.text : null,
    html: mayRead ? row.html : null,
  };
}

async function auditSecretReads(db: Db, viewer: OutboxViewer, mails: OutboxMail[]) {
  for (const mail of mails) {
    if (!mail.secret || (mail.text === null && mail.html === null)) continue;
    await recordAudit(db, {
      actor: viewer.actor,
      action: 'mail-secret-read',
      target: `mail:${mail.id}`,
      ip: viewer.ip ?? null,
      detail: { kind: mail.kind, link: mail.link },
    });
  }
}

/**
 * Kept mails, newest first, as `viewer` may see them (nothing for a non-staff role). Bodies only
 * with `bodies`; an admin's read of a secret body is audited before it is returned.
 */
export async function listOutboxMails(
  db: Db,
  viewer: OutboxViewer,
  options: { to?: string; limit?: number; bodies?: boolean } = {},
): Promise<OutboxMail[]> {
  if (!STAFF_ROLES.includes(viewer.role)) return [];
  await removeExpiredLinks(db);
  const rows = await db
    .select({ ...envelope, ...(options.bodies ? bodyFor(viewer) : noBody) })
    .from(mailOutbox)
    .where(options.to ? eq(mailOutbox.to, options.to) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(options.limit ?? 100);
  const mails = rows.map((row) => toMail(row, viewer));
  await auditSecretReads(db, viewer, mails);
  return mails;
}

/** One kept mail with its body as `viewer` may see it, or null (unknown id, non-staff role). */
export async function readOutboxMail(
  db: Db,
  viewer: OutboxViewer,
  id: string,
): Promise<OutboxMail | null> {
  if (!STAFF_ROLES.includes(viewer.role) || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  await removeExpiredLinks(db);
  const [row] = await db
    .select({ ...envelope, ...bodyFor(viewer) })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) return null;
  const mail = toMail(row, viewer);
  await auditSecretReads(db, viewer, [mail]);
  return mail;
}

/** Keeps a whole mail (no SMTP). A secret one also keeps its copy without the link, for later. */
export async function keepMail(db: Db, mail: Mail): Promise<void> {
  await db.insert(mailOutbox).values({
    to: mail.to,
    subject: mail.subject,
    kind: mail.kind,
    status: 'stored',
    textBody: mail.text,
    htmlBody: mail.html,
    secret: mail.secret !== null,
    tokenUserId: mail.secret?.userId ?? null,
    linkExpiresAt: mail.secret?.expiresAt ?? null,
    redactedText: mail.secret?.redacted.text ?? null,
    redactedHtml: mail.secret?.redacted.html ?? null,
  });
}

/** Records a mail handed to SMTP: its envelope only, never a body. */
export async function recordSentMail(
  db: Db,
  mail: Mail,
  outcome: { status: 'sent' } | { status: 'failed'; error: string },
): Promise<void> {
  await db.insert(mailOutbox).values({
    to: mail.to,
    subject: mail.subject,
    kind: mail.kind,
    secret: mail.secret !== null,
    status: outcome.status,
    error: outcome.status === 'failed' ? outcome.error : null,
  });
}

/** Puts the link-less copy in place of the body of each kept mail `where` matches whose link is still there. */
async function removeLinks(db: Db, where: SQL | undefined, now: Date): Promise<number> {
  const removed = await db
    .update(mailOutbox)
    .set({
      // In one UPDATE every right-hand side reads the old row: the copy moves, then is cleared.
      textBody: sql`${mailOutbox.redactedText}`,
      htmlBody: sql`${mailOutbox.redactedHtml}`,
      redactedText: null,
      redactedHtml: null,
      linkRemovedAt: now,
    })
    .where(and(isNull(mailOutbox.linkRemovedAt), isNotNull(mailOutbox.linkExpiresAt), where))
    .returning({ id: mailOutbox.id });
  return removed.length;
}

/** Removes the links whose token has expired. No job runner: called on every read and write. */
export function removeExpiredLinks(db: Db, now = new Date()): Promise<number> {
  return removeLinks(db, lte(mailOutbox.linkExpiresAt, now), now);
}

/** Removes the links of those kinds of mail sent to the account. */
const removeAccountLinks = (db: Db, userId: string, kinds: string[]) =>
  removeLinks(
    db,
    and(eq(mailOutbox.tokenUserId, userId), inArray(mailOutbox.kind, kinds)),
    new Date(),
  );

/** A password reset spends every reset link of the account (auth.ts, onPasswordReset). */
export function removeResetLinks(db: Db, userId: string): Promise<number> {
  return removeAccountLinks(db, userId, [TOKEN_MAIL_KINDS.resetPassword]);
}

/**
 * A verified address (sign-up or e-mail change) spends the account's verification and change
 * links: the older ones do nothing or are refused (auth.ts, afterEmailVerification).
 */
export function removeVerificationLinks(db: Db, userId: string): Promise<number> {
  return removeAccountLinks(db, userId, [
    TOKEN_MAIL_KINDS.verifyEmail,
    TOKEN_MAIL_KINDS.changeEmail,
  ]);
}

/** A sign-in by link spends every sign-in link of the account (identity/sign-in-link.ts). */
export function removeSignInLinks(db: Db, userId: string): Promise<number> {
  return removeAccountLinks(db, userId, [TOKEN_MAIL_KINDS.signInLink]);
}

/**
 * Every kept mail with its body, unchecked, for tests that follow a mailed link (the account
 * flows). Pages and commands go through listOutboxMails / readOutboxMail.
 */
export async function listOutbox(db: Db, options: { to?: string; limit?: number } = {}) {
  await removeExpiredLinks(db);
  return db
    .select({ ...envelope, textBody: mailOutbox.textBody, htmlBody: mailOutbox.htmlBody })
    .from(mailOutbox)
    .where(options.to ? eq(mailOutbox.to, options.to) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(options.limit ?? 100);
}
