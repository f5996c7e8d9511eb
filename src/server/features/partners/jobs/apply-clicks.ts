import 'server-only';
import { and, count, eq, inArray } from 'drizzle-orm';
import { isClosed } from '@/lib/jobs';
import { findItem, type Job, jobSchema } from '@/server/features/content';
import type { Db } from '@/server/platform/db/client';
import { jobApplyClicks, pageViews } from '@/server/platform/db/schema';
import { isBotUserAgent } from '@/server/platform/http/user-agent';

/**
 * 「この求人に応募する」: GET /jobs/{contentId}/apply counts the click and sends the reader on
 * to the listing's own address (its application page, or a mail to its address). The address
 * is only ever the one stored on the published listing, checked again here, so the route can
 * never send anyone elsewhere. The counts are what a partner sees of each listing.
 */

export type ApplyVia = 'url' | 'email';

/** A mailbox as the listing form accepts it, with nothing a mailto: URL would read as syntax. */
const MAILBOX = /^[^\s@<>()[\]\\,;:"?&#%/]+@[^\s@<>()[\]\\,;:"?&#%/]+\.[^\s@<>()[\]\\,;:"?&#%/]+$/;

/** The listing's application page: an absolute http(s) URL, or none. */
export function applyUrlOf(job: Pick<Job, 'applyUrl'>): string | null {
  const value = job.applyUrl?.trim();
  if (!value || !URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}

export function applyEmailOf(job: Pick<Job, 'applyEmail'>): string | null {
  const value = job.applyEmail?.trim();
  return value && value.length <= 254 && MAILBOX.test(value) ? value : null;
}

/** mailto: with the listing named in the subject, so the company knows what it is about. */
export function applyMailto(email: string, title: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(`「${title}」への応募`)}`;
}

/**
 * Where a click on this listing goes: its application page (unless `via` asks for e-mail), else
 * a mail to its address; null when it has neither.
 */
export function applyTarget(
  job: Pick<Job, 'title' | 'applyUrl' | 'applyEmail'>,
  via: ApplyVia = 'url',
): string | null {
  const url = applyUrlOf(job);
  const email = applyEmailOf(job);
  if (via === 'url' && url) return url;
  return email ? applyMailto(email, job.title) : null;
}

export async function recordApplyClick(db: Db, contentId: string, at: Date): Promise<void> {
  await db.insert(jobApplyClicks).values({ contentId, occurredAt: at });
}

const NO_STORE = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } as const;

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { ...NO_STORE, Location: location } });
}

function notFound(): Response {
  return new Response('この求人は見つかりませんでした。', {
    status: 404,
    headers: { ...NO_STORE, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/** A person following the link: not a crawler, nor a prefetch the browser made on its own. */
function isReaderClick(request: Request): boolean {
  const headers = request.headers;
  if (isBotUserAgent(headers.get('user-agent'))) return false;
  const purpose = `${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''}`;
  return !/prefetch|prerender/i.test(purpose) && !headers.has('next-router-prefetch');
}

export type ApplyDeps = {
  db: Db;
  now?: () => Date;
  /** The published listing (never a draft): the site's content service by default. */
  findJob?: (contentId: string) => Promise<Job | null>;
};

const findPublishedJob = (contentId: string) => findItem('jobs', jobSchema, contentId);

/**
 * The answer to GET /jobs/{contentId}/apply[?via=email]: 303 to the listing's address with the
 * click counted (not for crawlers); a closed listing goes back to its page (which says so);
 * an unknown listing, or one without that way to apply, is a 404.
 */
export async function handleApplyClick(
  request: Request,
  contentId: string,
  deps: ApplyDeps,
): Promise<Response> {
  const now = deps.now?.() ?? new Date();
  const job = await (deps.findJob ?? findPublishedJob)(contentId);
  if (!job) return notFound();
  if (isClosed(job.closingDate, now)) return seeOther(`/jobs/${encodeURIComponent(job.id)}`);
  const via: ApplyVia = new URL(request.url).searchParams.get('via') === 'email' ? 'email' : 'url';
  const target = applyTarget(job, via);
  if (!target) return notFound();
  if (isReaderClick(request)) await recordApplyClick(deps.db, job.id, now);
  return seeOther(target);
}

/**
 * A number per listing asked for (0 when there are no rows), from rows that `countRows` groups
 * by content id.
 */
async function countPerListing(
  contentIds: readonly string[],
  countRows: (ids: string[]) => Promise<{ contentId: string | null; n: number }[]>,
): Promise<Map<string, number>> {
  const counts = new Map(contentIds.map((id) => [id, 0]));
  if (contentIds.length === 0) return counts;
  for (const row of await countRows([...contentIds]))
    if (row.contentId !== null) counts.set(row.contentId, row.n);
  return counts;
}

/** Apply clicks per listing (every listing asked for is in the map, 0 when none). */
export function countApplyClicks(
  db: Db,
  contentIds: readonly string[],
): Promise<Map<string, number>> {
  return countPerListing(contentIds, (ids) =>
    db
      .select({ contentId: jobApplyClicks.contentId, n: count() })
      .from(jobApplyClicks)
      .where(inArray(jobApplyClicks.contentId, ids))
      .groupBy(jobApplyClicks.contentId),
  );
}

/** Page views of each listing's page /jobs/{id} (every listing asked for is in the map). */
export function countJobViews(db: Db, contentIds: readonly string[]): Promise<Map<string, number>> {
  return countPerListing(contentIds, (ids) =>
    db
      .select({ contentId: pageViews.contentId, n: count() })
      .from(pageViews)
      .where(and(eq(pageViews.endpoint, 'jobs'), inArray(pageViews.contentId, ids)))
      .groupBy(pageViews.contentId),
  );
}
