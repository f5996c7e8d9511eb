import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { newsletterConsents, userPrivateProfiles } from '@/server/platform/db/schema';
import { keyedDigest, signToken, verifyToken } from '@/server/platform/security/signing';

/**
 * Who gets the newsletter, and the record of why (docs/decisions/025-newsletter-consent.md).
 *
 * - `user_private_profiles.newsletter` is the current answer; every change to it goes through
 *   `setNewsletterConsent`, which also appends to `newsletter_consents` (when, how, from which
 *   page). 特定電子メール法 第3条第2項 asks the sender to keep the record of consent: the rows
 *   are never updated or deleted, an unsubscribe is one more row, and a closed account keeps
 *   its rows without the link to it.
 * - The unsubscribe link carries a token signed with APP_SECRET under its own purpose, naming
 *   the reader (not the address: an address change keeps old letters' links working). It lives
 *   long (UNSUBSCRIBE_TOKEN_SECONDS): a letter may be read months later, and all it can do is
 *   stop the newsletter of the one reader it names.
 */

export const CONSENT_METHODS = [
  'sign-up',
  'account',
  'footer',
  'one-click',
  'unsubscribe-page',
  'staff',
] as const;
export type ConsentMethod = (typeof CONSENT_METHODS)[number];
export type ConsentAction = 'subscribed' | 'unsubscribed' | 'confirmed';

const TOKEN_PURPOSE = 'newsletter-unsubscribe';
/** Two years: longer than anyone keeps a letter unread, short enough that a leaked link ends. */
export const UNSUBSCRIBE_TOKEN_SECONDS = 2 * 366 * 24 * 60 * 60;
export const UNSUBSCRIBE_PATH = '/newsletter/unsubscribe';

/** The reader's unsubscribe token: their id, signed, for UNSUBSCRIBE_TOKEN_SECONDS. */
export function unsubscribeToken(userId: string, now: number = Date.now()): string {
  return signToken(TOKEN_PURPOSE, Buffer.from(userId).toString('base64url'), {
    seconds: UNSUBSCRIBE_TOKEN_SECONDS,
    now,
  });
}

/**
 * The reader's unsubscribe link: the page that asks before it stops (GET), and the RFC 8058
 * one-click target (POST `List-Unsubscribe=One-Click`) of the List-Unsubscribe header.
 */
export function unsubscribeUrl(userId: string, now?: number): string {
  return `${env().SITE_URL}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(userId, now)}`;
}

/** The reader a token names, when it is this purpose's, unaltered and unexpired; else null. */
export function verifyUnsubscribeToken(
  token: string | null | undefined,
  now: number = Date.now(),
): string | null {
  const payload = verifyToken(TOKEN_PURPOSE, token ?? undefined, { now });
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  const userId = Buffer.from(payload, 'base64url').toString('utf8');
  return userId.length > 0 && userId.length <= 200 ? userId : null;
}

export type ConsentChange = {
  userId: string;
  subscribed: boolean;
  method: ConsentMethod;
  /**
   * A double opt-in's confirmation (the footer's mail): recorded as `confirmed` even when the
   * reader was already subscribed.
   */
  confirmed?: boolean;
  /** The page the reader acted on (a path), when there was one. */
  page?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** Who acted, for the audit log: the reader by default, `staff:ID` or `one-click`. */
  actor?: string;
  now?: Date;
};

export type ConsentResult = {
  /** False when the reader has no profile (a deleted account): nothing was written. */
  found: boolean;
  /** Whether the newsletter setting changed. */
  changed: boolean;
  email: string | null;
};

/** A client address as the consent log keeps it: a keyed digest, never the address. */
const ipDigest = (ip: string | null | undefined) =>
  ip ? keyedDigest('newsletter-consent-ip', ip) : null;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Appends a row to the consent log, inside the caller's transaction with the change it records. */
export async function appendConsent(
  tx: Tx,
  row: Pick<ConsentChange, 'userId' | 'method' | 'page' | 'ip' | 'userAgent'> & {
    email: string;
    action: ConsentAction;
    at: Date;
  },
): Promise<void> {
  await tx.insert(newsletterConsents).values({
    userId: row.userId,
    email: row.email,
    action: row.action,
    method: row.method,
    page: row.page ?? null,
    at: row.at,
    ipHash: ipDigest(row.ip),
    userAgent: row.userAgent?.slice(0, 500) ?? null,
  });
}

/**
 * Sets whether the reader gets the newsletter, and appends the consent row when the setting
 * changes (or a double opt-in is confirmed). Saying the same again writes nothing: a mail
 * scanner's second one-click is not a second record.
 */
export async function setNewsletterConsent(db: Db, change: ConsentChange): Promise<ConsentResult> {
  const at = change.now ?? new Date();
  const result = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ newsletter: userPrivateProfiles.newsletter, email: userPrivateProfiles.email })
      .from(userPrivateProfiles)
      .where(eq(userPrivateProfiles.userId, change.userId))
      .for('update');
    if (!current) return { found: false, changed: false, email: null };
    const changed = current.newsletter !== change.subscribed;
    if (changed) {
      await tx
        .update(userPrivateProfiles)
        .set({ newsletter: change.subscribed, updatedAt: at })
        .where(eq(userPrivateProfiles.userId, change.userId));
    }
    const action: ConsentAction | null =
      change.subscribed && change.confirmed
        ? 'confirmed'
        : changed
          ? change.subscribed
            ? 'subscribed'
            : 'unsubscribed'
          : null;
    if (action) {
      await appendConsent(tx, { ...change, email: current.email, action, at });
    }
    return { found: true, changed, email: current.email };
  });
  if (result.changed) {
    await recordAudit(db, {
      actor: change.actor ?? `user:${change.userId}`,
      action: 'newsletter-consent',
      target: `user:${change.userId}`,
      ip: change.ip ?? null,
      detail: { newsletter: change.subscribed, method: change.method },
    });
  }
  return result;
}

/** Whether the reader gets the newsletter now (false without a profile). */
export async function isSubscribed(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ newsletter: userPrivateProfiles.newsletter })
    .from(userPrivateProfiles)
    .where(eq(userPrivateProfiles.userId, userId));
  return row?.newsletter ?? false;
}

export type ConsentRecord = {
  action: ConsentAction;
  method: ConsentMethod;
  page: string | null;
  at: Date;
};

/** The reader's consent log, oldest first (staff and tests). */
export async function consentHistory(db: Db, userId: string): Promise<ConsentRecord[]> {
  const rows = await db
    .select({
      action: newsletterConsents.action,
      method: newsletterConsents.method,
      page: newsletterConsents.page,
      at: newsletterConsents.at,
    })
    .from(newsletterConsents)
    .where(eq(newsletterConsents.userId, userId))
    .orderBy(newsletterConsents.at, newsletterConsents.id);
  return rows as ConsentRecord[];
}
