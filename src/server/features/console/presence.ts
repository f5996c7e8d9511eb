import 'server-only';
import { hostname } from 'node:os';
import { and, asc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { type PresenceAnswer, type PresenceEntry, presenceCutoff } from '@/lib/cms/presence';
import type { Db } from '@/server/platform/db/client';
import { cmsContents, cmsPresence, user } from '@/server/platform/db/schema';

/**
 * Who has an item open in the console's editor (docs/decisions/038-editing-presence.md).
 * Rows live in PostgreSQL, so every instance behind the load balancer answers the same; the
 * editor renews its row every 15 s and a row older than 45 s counts for nothing (and is
 * removed by the next heartbeat anywhere). The caller has already asked the allow-list
 * whether the viewer may open the item; these functions never widen what they see.
 */

/** This process, as written in `instance` (which instance took the heartbeat: diagnostics). */
const INSTANCE = `${hostname()}:${process.pid}`;

type Item = { endpoint: string; id: string };

/** No display name: what the others read instead of an e-mail address they may not see. */
const UNNAMED = '名前未設定のスタッフ';

/**
 * The viewer has the item open at `now`: renews their row (kept since they opened it; a row
 * that expired starts again), and drops every expired row on the way.
 */
export async function markPresent(db: Db, item: Item, userId: string, now: Date): Promise<void> {
  await db.delete(cmsPresence).where(lt(cmsPresence.lastSeen, presenceCutoff(now)));
  await db
    .insert(cmsPresence)
    .values({
      endpoint: item.endpoint,
      contentId: item.id,
      userId,
      instance: INSTANCE,
      startedAt: now,
      lastSeen: now,
    })
    .onConflictDoUpdate({
      target: [cmsPresence.endpoint, cmsPresence.contentId, cmsPresence.userId],
      set: { lastSeen: now, instance: INSTANCE },
    });
}

/** The viewer closed the editor: the others stop seeing them at once. */
export async function markGone(db: Db, item: Item, userId: string): Promise<void> {
  await db
    .delete(cmsPresence)
    .where(
      and(
        eq(cmsPresence.endpoint, item.endpoint),
        eq(cmsPresence.contentId, item.id),
        eq(cmsPresence.userId, userId),
      ),
    );
}

/**
 * Everyone but `viewerId` with one of these items open at `now`, by item, longest-open first.
 */
export async function editorsByItem(
  db: Db,
  endpoint: string,
  ids: readonly string[],
  viewerId: string,
  now: Date,
): Promise<Map<string, PresenceEntry[]>> {
  const byItem = new Map<string, PresenceEntry[]>();
  if (ids.length === 0) return byItem;
  const rows = await db
    .select({
      contentId: cmsPresence.contentId,
      name: user.name,
      startedAt: cmsPresence.startedAt,
    })
    .from(cmsPresence)
    .innerJoin(user, eq(user.id, cmsPresence.userId))
    .where(
      and(
        eq(cmsPresence.endpoint, endpoint),
        inArray(cmsPresence.contentId, [...ids]),
        ne(cmsPresence.userId, viewerId),
        gte(cmsPresence.lastSeen, presenceCutoff(now)),
      ),
    )
    .orderBy(asc(cmsPresence.startedAt), asc(user.name));
  for (const row of rows) {
    const list = byItem.get(row.contentId) ?? [];
    list.push({ name: row.name.trim() || UNNAMED, since: row.startedAt.toISOString() });
    byItem.set(row.contentId, list);
  }
  return byItem;
}

/** The stored item's last save, for the editor to compare with the version it started from. */
async function lastSave(db: Db, item: Item, viewerId: string): Promise<PresenceAnswer['saved']> {
  const [row] = await db
    .select({
      updatedAt: cmsContents.updatedAt,
      updatedBy: cmsContents.updatedBy,
      name: user.name,
    })
    .from(cmsContents)
    // Only a person has a name: an API key or the scheduler leaves `by` null.
    .leftJoin(user, eq(sql`'user:' || ${user.id}`, cmsContents.updatedBy))
    .where(and(eq(cmsContents.endpoint, item.endpoint), eq(cmsContents.id, item.id)));
  if (!row) return null;
  const person = row.updatedBy?.startsWith('user:') ?? false;
  return {
    updatedAt: row.updatedAt.toISOString(),
    by: person ? row.name?.trim() || UNNAMED : null,
    mine: row.updatedBy === `user:${viewerId}`,
  };
}

/**
 * One heartbeat: record the viewer (when they may write the item; a reader only looks) or
 * forget them (`leaving`), then answer who else is there and the item's last save.
 */
export async function heartbeat(
  db: Db,
  item: Item,
  viewer: { id: string; records: boolean; leaving: boolean },
  now: Date,
): Promise<PresenceAnswer> {
  if (viewer.leaving) await markGone(db, item, viewer.id);
  else if (viewer.records) await markPresent(db, item, viewer.id, now);
  const editors = await editorsByItem(db, item.endpoint, [item.id], viewer.id, now);
  return {
    at: now.toISOString(),
    editors: editors.get(item.id) ?? [],
    saved: await lastSave(db, item, viewer.id),
  };
}
