import 'server-only';
import { inArray } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { user } from '@/server/platform/db/schema';

/** How the console names who wrote: `user:<id>`, `key:<id>` or `system` (versions, lists). */
export const SYSTEM_LABEL = 'システム (予約公開)';
export const API_LABEL = 'API';

export async function actorLabels(
  db: Db,
  actors: Iterable<string | null>,
): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const userIds = new Set<string>();
  for (const actor of actors) {
    if (!actor) continue;
    if (actor.startsWith('user:')) userIds.add(actor.slice(5));
    else labels.set(actor, actor.startsWith('key:') ? API_LABEL : SYSTEM_LABEL);
  }
  if (userIds.size > 0) {
    const rows = await db
      .select({ id: user.id, name: user.name, email: user.email })
      .from(user)
      .where(inArray(user.id, [...userIds]));
    for (const row of rows) labels.set(`user:${row.id}`, row.name || row.email);
  }
  for (const id of userIds)
    if (!labels.has(`user:${id}`)) labels.set(`user:${id}`, '削除されたユーザー');
  return labels;
}
