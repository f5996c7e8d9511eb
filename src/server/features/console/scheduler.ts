import 'server-only';
import { asc, isNotNull, lte, and } from 'drizzle-orm';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import { CmsApiError } from '@/server/services/cms/errors';
import { findEndpoint } from '@/lib/cms/model';
import { publishContent, scheduleContent } from '@/server/services/cms/writes';

/**
 * Scheduled publishing: every few seconds each server process publishes the items whose time
 * has come. publishContent re-checks the schedule under a row lock, so with several instances
 * one publishes and the others find nothing to do; the publish clears the caches like any
 * other write, so the pages that show the item refresh. `npm run admin -- run-scheduled --at ISO`
 * runs one round as of a given time (the end-to-end suite's clock, so no test waits for it).
 */

export const SCHEDULE_INTERVAL_MS = 5_000;
const SYSTEM = { actor: 'system' } as const;

/** Publishes what is due by `now`; returns how many were published. */
export async function publishDueItems(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .select({ endpoint: cmsContents.endpoint, id: cmsContents.id })
    .from(cmsContents)
    .where(and(isNotNull(cmsContents.scheduledAt), lte(cmsContents.scheduledAt, now)))
    .orderBy(asc(cmsContents.scheduledAt))
    .limit(100);
  let published = 0;
  for (const item of due) {
    const def = findEndpoint(item.endpoint);
    if (!def) continue;
    try {
      if ((await publishContent(db, def, item.id, SYSTEM, { due: now })).published) published++;
    } catch (error) {
      if (!(error instanceof CmsApiError)) throw error;
      // Content the rules refuse (emptied, say) would fail every round: the schedule is
      // dropped, which the item's history shows, and the editor sees it back in 下書き.
      console.warn(
        `[cms] scheduled publish of ${item.endpoint}/${item.id} refused:`,
        error.message,
      );
      await scheduleContent(db, def, item.id, null, SYSTEM);
    }
  }
  return published;
}

const runner = singleton('cms-scheduler', () => ({ timer: null as NodeJS.Timeout | null }));

export function startScheduler(db: Db): void {
  if (runner.timer) return;
  const tick = () =>
    void publishDueItems(db).catch((error: unknown) =>
      console.error('[cms] scheduled publishing failed:', error),
    );
  runner.timer = setInterval(tick, SCHEDULE_INTERVAL_MS);
  runner.timer.unref();
  tick();
}

export function stopScheduler(): void {
  if (runner.timer) clearInterval(runner.timer);
  runner.timer = null;
}
