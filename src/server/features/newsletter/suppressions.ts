import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/server/platform/db/client';
import { newsletterSuppressions } from '@/server/platform/db/schema';
import { recordAudit } from '@/server/platform/audit/audit-log';

/**
 * Addresses no newsletter goes to: ones that bounced or complained, and ones staff stopped by
 * hand. Keyed by the lower-cased address, so the queue's check is one index lookup. Both
 * changes are audited (`newsletter-suppressed` / `newsletter-unsuppressed`).
 */

export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const suppressionReasonSchema = z.enum(SUPPRESSION_REASONS);

export type Suppression = {
  email: string;
  reason: SuppressionReason;
  note: string;
  createdAt: Date;
  createdBy: string;
};

export const normaliseAddress = (email: string): string => email.trim().toLowerCase();

/** Adds (or updates the reason of) a suppression; false when it was already there unchanged. */
export async function suppressAddress(
  db: Db,
  input: { email: string; reason: SuppressionReason; note?: string; actor: string },
): Promise<boolean> {
  const email = normaliseAddress(input.email);
  const reason = suppressionReasonSchema.parse(input.reason);
  const note = input.note ?? '';
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(newsletterSuppressions)
      .where(eq(newsletterSuppressions.email, email))
      .for('update');
    if (before && before.reason === reason && before.note === note) return false;
    await tx
      .insert(newsletterSuppressions)
      .values({ email, reason, note, createdBy: input.actor })
      .onConflictDoUpdate({ target: newsletterSuppressions.email, set: { reason, note } });
    await recordAudit(tx, {
      actor: input.actor,
      action: 'newsletter-suppressed',
      target: `email:${email}`,
      detail: { reason, ...(before ? { previous: before.reason } : {}) },
    });
    return true;
  });
}

/** Who suppressed an address that the mail server refused at send time (delivery.ts). */
export const BOUNCE_ACTOR = 'newsletter:bounce';
/** Who suppressed an address named by a bounce or complaint that came back by mail (bounces.ts). */
export const REPORT_ACTOR = 'newsletter:mail-report';

export type AutomaticSuppression = 'added' | 'upgraded' | 'kept';

/**
 * Suppresses an address the mail system reported on (a refusal at send time, a bounce or a
 * complaint that came back later), audited under `actor`. An address already on the list keeps
 * its reason, except that a complaint replaces a bounce: staff's stop or a complaint says more
 * than a bounce, and a complaint is what the provider counts against the sender.
 */
export async function suppressAutomatically(
  db: Db,
  input: {
    email: string;
    reason: 'bounce' | 'complaint';
    note: string;
    actor: string;
    detail: Record<string, unknown>;
  },
): Promise<AutomaticSuppression> {
  const email = normaliseAddress(input.email);
  const note = input.note.slice(0, 500);
  return db.transaction(async (tx) => {
    const [added] = await tx
      .insert(newsletterSuppressions)
      .values({ email, reason: input.reason, note, createdBy: input.actor })
      .onConflictDoNothing()
      .returning({ email: newsletterSuppressions.email });
    let outcome: AutomaticSuppression = added ? 'added' : 'kept';
    if (!added && input.reason === 'complaint') {
      const [upgraded] = await tx
        .update(newsletterSuppressions)
        .set({ reason: 'complaint', note, createdBy: input.actor })
        .where(
          and(eq(newsletterSuppressions.email, email), eq(newsletterSuppressions.reason, 'bounce')),
        )
        .returning({ email: newsletterSuppressions.email });
      if (upgraded) outcome = 'upgraded';
    }
    if (outcome === 'kept') return outcome;
    await recordAudit(tx, {
      actor: input.actor,
      action: 'newsletter-suppressed',
      target: `email:${email}`,
      detail: {
        reason: input.reason,
        ...(outcome === 'upgraded' ? { previous: 'bounce' } : {}),
        ...input.detail,
      },
    });
    return outcome;
  });
}

/**
 * Suppresses an address the mail server refused for good while a letter was sent, with the
 * server's reply as the note.
 */
export async function suppressBounce(db: Db, email: string, reply: string): Promise<boolean> {
  const outcome = await suppressAutomatically(db, {
    email,
    reason: 'bounce',
    note: `配信時に拒否されました: ${reply}`,
    actor: BOUNCE_ACTOR,
    detail: { reply },
  });
  return outcome === 'added';
}

/** Removes a suppression; false when the address was not suppressed. */
export async function unsuppressAddress(
  db: Db,
  input: { email: string; actor: string },
): Promise<boolean> {
  const email = normaliseAddress(input.email);
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(newsletterSuppressions)
      .where(eq(newsletterSuppressions.email, email))
      .returning();
    if (!removed) return false;
    await recordAudit(tx, {
      actor: input.actor,
      action: 'newsletter-unsuppressed',
      target: `email:${email}`,
      detail: { reason: removed.reason },
    });
    return true;
  });
}

export async function isSuppressed(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: newsletterSuppressions.email })
    .from(newsletterSuppressions)
    .where(eq(newsletterSuppressions.email, normaliseAddress(email)));
  return row !== undefined;
}

/** Newest first. */
export async function listSuppressions(
  db: Db,
  options: { limit?: number; offset?: number } = {},
): Promise<Suppression[]> {
  const rows = await db
    .select()
    .from(newsletterSuppressions)
    .orderBy(desc(newsletterSuppressions.createdAt), newsletterSuppressions.email)
    .limit(options.limit ?? 200)
    .offset(options.offset ?? 0);
  return rows.map((row) => ({ ...row, reason: suppressionReasonSchema.parse(row.reason) }));
}
