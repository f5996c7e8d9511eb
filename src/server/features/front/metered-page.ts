import 'server-only';
import type { IncomingMessage } from 'node:http';
import { postGate } from '@/server/features/access';
import { meterRead, meteredAllowance } from '@/server/features/metered';
import { getDb } from '@/server/platform/db/client';
import { countsAsRead, postPageId } from './reader-opens';

/**
 * The meter run by the front server before the page cache, for a free member's post page (the
 * draft amendment of docs/decisions/055-metered-wall.md, "metered reads from the cache"). Not
 * yet asked by the pipeline: while it is not, a free member's post pages are rendered per
 * request (step one). Which cached page may answer:
 * - `member`: the post is not one the wall decides (public, in the free plan, or the wall off):
 *   the free members' page, as before the wall;
 * - `metered`: the database holds this reader's read of this very post this Japan month (just
 *   inserted by a page load, or a re-read): the metered readers' page, the count spliced in;
 * - `paywall`: it does not (used up, or a request that may not spend a read): the free members'
 *   paywall, the count spliced in;
 * - null: no cache (no such post, a page under a post, or the gate or meter could not be told).
 * `userId` must be the server's own knowledge of the session (the signed audience cookie or the
 * session), never a header; only a reader's page load (countsAsRead), not the refresh, inserts.
 */
export type MeteredPage =
  | { entry: 'member' }
  | { entry: 'metered' | 'paywall'; contentId: string; perMonth: number; left: number }
  | null;

export async function meteredPage(
  req: IncomingMessage,
  userId: string,
  options: { refresh: boolean; now?: Date },
): Promise<MeteredPage> {
  const contentId = postPageId(req.url ?? '/');
  if (contentId === null) return null;
  try {
    const perMonth = await meteredAllowance();
    if (perMonth <= 0) return { entry: 'member' };
    const gate = await postGate(contentId);
    if (gate.kind === 'missing') return null;
    if (gate.kind === 'open') return { entry: 'member' };
    const metered = await meterRead(await getDb(), userId, gate.post, {
      now: options.now ?? new Date(),
      allowance: perMonth,
      consume: !options.refresh && countsAsRead(req),
    });
    const entry = metered.opened ? 'metered' : 'paywall';
    return { entry, contentId, perMonth, left: metered.left };
  } catch (error) {
    console.warn('[front] the metered read could not be decided before the cache:', error);
    return null;
  }
}
