import 'server-only';
import { likeContaining, pageWithin } from '@/server/platform/db/paging';
import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';
import { auditEvents, user } from '@/server/platform/db/schema';
import { AUDIT_RECORD_COLUMNS, type AuditRecord } from './audit-log';

/**
 * The audit log for the admin screen (/admin/audit): newest first, a page at a time, narrowed
 * to one action and/or to text in the actor or the target (`user:{id}` finds everything done
 * by or to that user). Actors that are users are shown by their address while they exist.
 */

export const AUDIT_PAGE_SIZE = 50;

export type AuditQuery = { page: number; action?: string; q?: string };

export type AuditPage = {
  items: AuditRecord[];
  total: number;
  page: number;
  pageCount: number;
};

export async function listAuditPage(db: Db, query: AuditQuery): Promise<AuditPage> {
  const q = query.q?.trim() ?? '';
  const where = and(
    query.action ? eq(auditEvents.action, query.action) : undefined,
    q
      ? or(
          ilike(auditEvents.actor, likeContaining(q)),
          ilike(auditEvents.target, likeContaining(q)),
        )
      : undefined,
  );
  const [counted] = await db.select({ total: count() }).from(auditEvents).where(where);
  const total = counted?.total ?? 0;
  const { page, pageCount, offset } = pageWithin(total, query.page, AUDIT_PAGE_SIZE);
  const items = await db
    .select(AUDIT_RECORD_COLUMNS)
    .from(auditEvents)
    .where(where)
    // Same-instant events (one request's) keep a stable order across pages.
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset(offset);
  return { items, total, page, pageCount };
}

/** The most recent events done to one user (their page's history). */
export async function recentAuditFor(
  db: Db,
  target: string,
  limit: number,
): Promise<AuditRecord[]> {
  return db
    .select(AUDIT_RECORD_COLUMNS)
    .from(auditEvents)
    .where(eq(auditEvents.target, target))
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(limit);
}

/**
 * The action names present in the log, for the filter's choices. A DISTINCT reads every event
 * (10,000 members make hundreds of thousands); this walks the action index from one name to
 * the next, a lookup per name however long the log.
 */
export async function auditActions(db: Db): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    db,
    sql`
    WITH RECURSIVE names(action) AS (
      SELECT min(${auditEvents.action}) FROM ${auditEvents}
      UNION ALL
      SELECT (SELECT min(${auditEvents.action}) FROM ${auditEvents} WHERE ${auditEvents.action} > names.action)
      FROM names WHERE names.action IS NOT NULL
    )
    SELECT action FROM names WHERE action IS NOT NULL`,
  );
  return rows.map((r) => r.action);
}

const USER_REF = /^user:(.+)$/;

/** `user:{id}` → that user's address, for every such actor or target still on the site. */
export async function userEmailsFor(
  db: Db,
  refs: readonly (string | null)[],
): Promise<Map<string, string>> {
  const ids = [
    ...new Set(refs.flatMap((ref) => (ref ? [USER_REF.exec(ref)?.[1]] : [])).filter(Boolean)),
  ] as string[];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(inArray(user.id, ids));
  return new Map(rows.map((r) => [`user:${r.id}`, r.email]));
}
