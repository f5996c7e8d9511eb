import 'server-only';
import type { IncomingMessage } from 'node:http';
import { postGate } from '@/server/features/access';
import {
  meterLine,
  meterRead,
  meteredAllowance,
  noteMeterDecision,
} from '@/server/features/metered';
import { getDb } from '@/server/platform/db/client';
import type { RequestContext } from '@/server/platform/http/request-context';
import { countsAsRead, postPageId } from './reader-opens';
import type { RequestAudience } from './request-audience';

/**
 * The meter run by the front server before the page cache, for a free member's post page while
 * the metered wall is on (docs/decisions/055-metered-wall.md, "metered reads from the cache").
 * Which cached page may answer:
 * - `member`: the post is not one the wall decides (public, in the free plan, or the wall off):
 *   the free members' page, as before the wall;
 * - `metered`: the database holds this reader's read of this very post this Japan month (just
 *   inserted by a page load, or a re-read): the metered readers' page for its count;
 * - `paywall`: it does not (used up, or a request that may not spend a read): the free members'
 *   paywall for its count;
 * - null: no cache (no such post, a page under a post, or the gate or meter could not be told).
 * `userId` must be the server's own knowledge of the session (the signed audience cookie or the
 * session), never a header; only a reader's page load (countsAsRead), not the refresh, inserts.
 */
export type MeteredPage =
  | { entry: 'member' }
  | {
      entry: 'metered' | 'paywall';
      contentId: string;
      createdAt: string;
      perMonth: number;
      left: number;
    }
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
    const { createdAt } = gate.post;
    return { entry, contentId, createdAt, perMonth, left: metered.left };
  } catch (error) {
    console.warn('[front] the metered read could not be decided before the cache:', error);
    return null;
  }
}

/**
 * The cached page a metered free member's post request may be answered with: the meter's
 * entry, keyed by the line it shows (meterLine), its decision noted on the request's context
 * for the render (the post page's reader, src/server/features/access/read.ts), or no cache.
 */
export async function meteredAudience(
  req: IncomingMessage,
  ctx: RequestContext & { refresh: boolean },
  userId: string,
  setCookie: string | undefined,
): Promise<RequestAudience> {
  const page = await meteredPage(req, userId, { refresh: ctx.refresh });
  const cookie = setCookie === undefined ? {} : { setCookie };
  if (page === null) return { cache: false, ...cookie };
  if (page.entry === 'member') return { cache: true, audience: 'member', ...cookie };
  const opened = page.entry === 'metered';
  const { contentId: id, createdAt, perMonth, left } = page;
  const decision = { id, createdAt, opened, perMonth, left };
  noteMeterDecision(ctx, decision);
  const audience = opened ? 'metered' : 'member';
  return { cache: true, audience, meter: meterLine(decision), ...cookie };
}
