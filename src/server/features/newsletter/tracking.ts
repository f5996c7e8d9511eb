import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';
import { escapeHtml } from '@/lib/text/escape-html';
import { FOOTER_MARK } from './letter';
import { countsAsOpen } from './opens';

/**
 * Opens and clicks of each letter (docs/decisions/063-newsletter-analytics.md), for readers who
 * leave tracking on:
 *
 * - **Clicks**: every link of the letter's HTML above its footer becomes
 *   `/nl/c/<letter id>/<index>`; the letter's links are stored on its row when it is sent, and the
 *   redirect answers only an index into that list. No address ever comes from the request, so
 *   it sends nowhere the letter did not hold: anything else is a 404.
 * - **Opens**: a 1×1 image `/nl/o/<letter id>`, besides the post visits opens.ts counts. Apple
 *   Mail Privacy Protection fetches every image on delivery, so opens overstate; the console
 *   shows clicks as the measure that counts.
 * - The footer's links (unsubscribe, the sender's pages, mail) stay plain, and a reader who
 *   turned tracking off gets a letter without pixel or redirect (its row's links stay null, so
 *   nothing answers for its id either).
 *
 * Crawlers, link scanners, prefetches and HEAD are not counted (countsAsOpen), but still sent
 * on: a scanner that follows a link must reach the same page as the reader.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const CLICK_PATH = new RegExp(`^/nl/c/(${UUID})/(0|[1-9][0-9]{0,2})$`);
const OPEN_PATH = new RegExp(`^/nl/o/(${UUID})\\.gif$`);
const MAX_LINKS = 200;

const UNESCAPE: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (text: string) =>
  text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => UNESCAPE[e]!);

export const clickUrl = (siteUrl: string, letterId: string, index: number) =>
  `${siteUrl.replace(/\/+$/, '')}/nl/c/${letterId}/${index}`;
export const pixelUrl = (siteUrl: string, letterId: string) =>
  `${siteUrl.replace(/\/+$/, '')}/nl/o/${letterId}.gif`;

/**
 * A letter's HTML with its links through the redirect and the pixel before `</body>`, and the
 * links in order (what the redirect may send to). Pure.
 */
export function trackLetterHtml(
  html: string,
  siteUrl: string,
  letterId: string,
): { html: string; links: string[] } {
  const cut = html.indexOf(FOOTER_MARK);
  const head = cut < 0 ? html : html.slice(0, cut);
  const tail = cut < 0 ? '' : html.slice(cut);
  const links: string[] = [];
  const tracked = head.replace(/ href="([^"]*)"/g, (whole, escaped: string) => {
    const href = unescapeHtml(escaped);
    if (!/^https?:\/\//i.test(href)) return whole;
    let index = links.indexOf(href);
    if (index < 0) {
      if (links.length >= MAX_LINKS) return whole;
      index = links.push(href) - 1;
    }
    return ` href="${escapeHtml(clickUrl(siteUrl, letterId, index))}"`;
  });
  const pixel = `<img src="${escapeHtml(pixelUrl(siteUrl, letterId))}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
  const withPixel = tail.includes('</body>')
    ? tail.replace('</body>', `${pixel}</body>`)
    : `${tail}${pixel}`;
  return { html: tracked + withPixel, links };
}

/** The stored link of a sent, tracked letter at `index`, or null (never anything else). */
export async function letterLink(db: Db, letterId: string, index: number): Promise<string | null> {
  const rows = await queryRows<{ href: string | null }>(
    db,
    sql`SELECT links[${index + 1}] AS href FROM newsletter_letters
        WHERE id = ${letterId}::uuid AND links IS NOT NULL
          AND status IN ('sent', 'uncertain')`,
  );
  return rows[0]?.href ?? null;
}

/** Counts a click (a click is also an open). */
export async function recordClick(db: Db, letterId: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.execute(
    sql`UPDATE newsletter_letters
        SET click_count = click_count + 1, clicked_at = coalesce(clicked_at, ${at}::timestamptz),
            opened_at = coalesce(opened_at, ${at}::timestamptz)
        WHERE id = ${letterId}::uuid AND links IS NOT NULL AND status IN ('sent', 'uncertain')`,
  );
}

/** Counts an open by the pixel, for a sent, tracked letter only. */
export async function recordPixelOpen(db: Db, letterId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE newsletter_letters
        SET open_count = open_count + 1, opened_at = coalesce(opened_at, ${at}::timestamptz)
        WHERE id = ${letterId}::uuid AND links IS NOT NULL AND status IN ('sent', 'uncertain')
        RETURNING id`,
  );
  return rows.length === 1;
}

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const NOT_FOUND = 'このリンクは見つかりません。';

/** Whether a request target is one of the letters' tracking addresses (no database). */
export const isTrackingPath = (target: string) => target.startsWith('/nl/');

/**
 * The front server's step for `/nl/…`: the click redirect and the pixel. Only GET and HEAD;
 * the query is ignored. A failure to count never stops the reader.
 */
export async function answerLetterTracking(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { db: () => Promise<Db>; now?: () => Date },
): Promise<void> {
  const path = (req.url ?? '/').split(/[?#]/, 1)[0]!;
  const now = deps.now?.() ?? new Date();
  const counts = countsAsOpen(req);
  const click = req.method === 'GET' || req.method === 'HEAD' ? CLICK_PATH.exec(path) : null;
  const open = req.method === 'GET' || req.method === 'HEAD' ? OPEN_PATH.exec(path) : null;
  const noStore = { 'cache-control': 'private, no-store', 'referrer-policy': 'no-referrer' };
  if (click) {
    const db = await deps.db();
    const letterId = click[1]!;
    const href = await letterLink(db, letterId, Number(click[2]));
    if (href) {
      if (counts)
        await recordClick(db, letterId, now).catch((error: unknown) =>
          console.error('[newsletter] a click could not be recorded:', error),
        );
      res.writeHead(302, { location: href, ...noStore, 'content-length': '0' });
      res.end();
      return;
    }
  } else if (open) {
    if (counts)
      await deps
        .db()
        .then((db) => recordPixelOpen(db, open[1]!, now))
        .catch((error: unknown) =>
          console.error('[newsletter] an open could not be recorded:', error),
        );
    // The same image whether or not the id is a letter's: a guess learns nothing.
    res.writeHead(200, { 'content-type': 'image/gif', 'content-length': PIXEL.length, ...noStore });
    res.end(req.method === 'HEAD' ? undefined : PIXEL);
    return;
  }
  const body = Buffer.from(NOT_FOUND);
  res.writeHead(404, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': body.length,
    ...noStore,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Whether the reader lets their letters count opens and clicks (the default). */
export async function trackingAllowed(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM newsletter_tracking_opt_outs WHERE user_id = ${userId}`,
  );
  return Number(rows[0]?.n ?? 0) === 0;
}

/** The account's switch: letters sent from now on carry (or not) the pixel and the redirect. */
export async function setTracking(db: Db, userId: string, allowed: boolean): Promise<void> {
  await db.execute(
    allowed
      ? sql`DELETE FROM newsletter_tracking_opt_outs WHERE user_id = ${userId}`
      : sql`INSERT INTO newsletter_tracking_opt_outs (user_id) VALUES (${userId})
            ON CONFLICT (user_id) DO NOTHING`,
  );
}

/** The reader's last open of any letter (the console's member page). */
export async function lastLetterOpen(db: Db, userId: string): Promise<Date | null> {
  const rows = await queryRows<{ at: string | Date | null }>(
    db,
    sql`SELECT max(opened_at) AS at FROM newsletter_letters WHERE user_id = ${userId}`,
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
