import 'server-only';
import { desc } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { auditEvents } from '@/server/db/schema';

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

export async function listAudit(db: Db, limit: number): Promise<AuditRecord[]> {
  return db
    .select({
      id: auditEvents.id,
      occurredAt: auditEvents.occurredAt,
      actor: auditEvents.actor,
      action: auditEvents.action,
      target: auditEvents.target,
      ip: auditEvents.ip,
      detail: auditEvents.detail,
    })
    .from(auditEvents)
    .orderBy(desc(auditEvents.occurredAt))
    .limit(limit);
}
