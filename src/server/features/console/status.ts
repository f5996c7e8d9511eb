import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { ConsoleStatus } from '@/lib/admin-content';

/**
 * The console's four states from the content API's statuses plus the schedule: a scheduled
 * item is 予約公開 whatever else it is, until the scheduler publishes it.
 */

export function consoleStatusOf(row: { status: string; scheduledAt: Date | null }): ConsoleStatus {
  if (row.scheduledAt) return 'scheduled';
  if (row.status === 'PUBLISH') return 'published';
  if (row.status === 'PUBLISH_AND_DRAFT') return 'changed';
  return 'draft'; // DRAFT, and CLOSED (closed through the API: off the site like a draft)
}

/** The same rule as a filter, so a list's badge and its status filter never disagree. */
export function statusCondition(status: ConsoleStatus): SQL {
  switch (status) {
    case 'scheduled':
      return sql`scheduled_at IS NOT NULL`;
    case 'published':
      return sql`(status = 'PUBLISH' AND scheduled_at IS NULL)`;
    case 'changed':
      return sql`(status = 'PUBLISH_AND_DRAFT' AND scheduled_at IS NULL)`;
    case 'draft':
      return sql`(status IN ('DRAFT', 'CLOSED') AND scheduled_at IS NULL)`;
  }
}
