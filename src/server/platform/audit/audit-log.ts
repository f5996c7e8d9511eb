import 'server-only';
import { desc } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { auditEvents } from '@/server/platform/db/schema';

export type AuditEntry = {
  actor: string;
  action: string;
  target?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
};

export type AuditRecord = Required<Omit<AuditEntry, 'detail'>> & {
  id: string;
  occurredAt: Date;
  detail: Record<string, unknown>;
};

/** The columns an AuditRecord is read from (every list of the log selects these). */
export const AUDIT_RECORD_COLUMNS = {
  id: auditEvents.id,
  occurredAt: auditEvents.occurredAt,
  actor: auditEvents.actor,
  action: auditEvents.action,
  target: auditEvents.target,
  ip: auditEvents.ip,
  detail: auditEvents.detail,
};

/** Leaves the audit record every security-relevant action must leave. */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? null,
    ip: entry.ip ?? null,
    detail: entry.detail ?? {},
  });
}

/** A signed-in user acting through a request: who, and from which client address. */
export type Actor = { userId: string; ip: string | null };

/** What a signed-in user did through a request (staff, or a partner's member), to `target`. */
export function recordActorAction(
  db: Db,
  actor: Actor,
  entry: Omit<AuditEntry, 'actor' | 'ip'>,
): Promise<void> {
  return recordAudit(db, { actor: `user:${actor.userId}`, ip: actor.ip, ...entry });
}

/**
 * An account holder's own action on their account (sign-up, sign-in, an e-mail change, the
 * deletion): the user is both who acted and what it was done to.
 */
export function recordOwnAction(
  db: Db,
  userId: string,
  action: string,
  entry: Pick<AuditEntry, 'ip' | 'detail'> = {},
): Promise<void> {
  return recordAudit(db, { actor: `user:${userId}`, action, target: `user:${userId}`, ...entry });
}

export async function listAudit(db: Db, limit: number): Promise<AuditRecord[]> {
  return db
    .select(AUDIT_RECORD_COLUMNS)
    .from(auditEvents)
    .orderBy(desc(auditEvents.occurredAt))
    .limit(limit);
}
