import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';
import { letterVisit } from './letter-param';
import { isBotUserAgent } from '@/server/platform/http/user-agent';

/**
 * Opens of a post from its letter, without a tracking pixel: every link to the post in a letter
 * carries `?nl=<letter id>` (the letter row's random UUID: opaque, not the reader's id, and
 * useless for anything but counting that letter's opens). The front server answers such a
 * request before its page cache: it counts the open, then redirects (303) to the same address
 * without the parameter, so
 *
 * - the cached page of each audience is shared by letter readers and everyone else (the
 *   parameter never reaches a render, so it never splits the cache nor ends up in a page);
 * - a reload or a shared address does not count again (one open per visit from the letter);
 * - nothing about who the reader is comes from it: no cookie is set, no session is touched.
 *
 * Not counted: crawlers and link scanners by User-Agent, prefetches, HEAD, and readers who ask
 * not to be tracked (DNT, Global Privacy Control), as the site's own page views.
 */

/** Counts an open of the letter, only if it was sent and links to this post. */
export async function recordLetterOpen(
  db: Db,
  input: { letterId: string; contentId: string; now?: Date },
): Promise<boolean> {
  const at = (input.now ?? new Date()).toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE newsletter_letters l
        SET open_count = l.open_count + 1, opened_at = coalesce(l.opened_at, ${at}::timestamptz)
        FROM newsletter_sends s
        WHERE l.id = ${input.letterId}::uuid AND s.id = l.send_id
          AND s.content_id = ${input.contentId} AND l.status IN ('sent', 'uncertain')
        RETURNING l.id`,
  );
  return rows.length === 1;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/** Whether this request is a person opening the page who lets it be counted. */
export function countsAsOpen(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  if (isBotUserAgent(header(req, 'user-agent') || null)) return false;
  if (header(req, 'dnt') === '1' || header(req, 'sec-gpc') === '1') return false;
  const purpose = `${header(req, 'purpose')} ${header(req, 'sec-purpose')}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  if (req.headers['next-router-prefetch'] !== undefined || req.headers.rsc !== undefined)
    return false;
  return true;
}

/**
 * The front server's step for a request carrying the letter parameter on a GET or HEAD of a
 * post: count the open (a failure to count never stops the reader), then redirect to the
 * address without it. False when the request is not one (the server goes on as usual).
 */
export async function answerLetterVisit(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { db: () => Promise<Db>; now?: () => Date },
): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const visit = letterVisit(req.url ?? '/');
  if (!visit) return false;
  if (visit.letterId && visit.contentId && countsAsOpen(req)) {
    try {
      await recordLetterOpen(await deps.db(), {
        letterId: visit.letterId,
        contentId: visit.contentId,
        now: deps.now?.(),
      });
    } catch (error) {
      console.error('[newsletter] an open could not be recorded:', error);
    }
  }
  res.writeHead(303, {
    location: visit.cleanUrl,
    'cache-control': 'private, no-store',
    'content-length': '0',
  });
  res.end();
  return true;
}
