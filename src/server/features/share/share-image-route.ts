import 'server-only';
import { TtlCache } from '@/lib/ttl-cache';
import { shareImagePath } from '@/lib/share/share-image-path';
import { getDb } from '@/server/platform/db/client';
import { errorResponse } from '@/server/platform/http/error-answer';
import { clientIp } from '@/server/platform/http/request-origin';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { type Limit, RateLimitedError, consume } from '@/server/platform/rate-limit/limiter';
import { renderShareImage } from './share-image';
import { readShareSubject } from './share-subject';
import { singleton } from '@/lib/singleton';

/**
 * The generated share image's answer. Its address names the item's version
 * (shareImagePath): asked with the current one it is cached for good (a new version is a new
 * address); with another or none, for five minutes. Rendered once per version per instance:
 * requests for an image being drawn wait for that drawing, and the last 200 are kept.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';

/**
 * Drawings per client address (a render takes 0.2 to 0.6 s of CPU). An image already drawn, or
 * being drawn, costs nothing: a service reading the images of a page's links stays well within.
 */
export const SHARE_IMAGE_LIMITS: readonly Limit[] = [
  { name: 'share-image-minute', max: 20, windowMs: 60_000 },
  { name: 'share-image-hour', max: 200, windowMs: 3_600_000 },
];

/** Drawings started, by everything drawn: one waiting for its client's allowance is one too. */
const rendered = singleton(
  'share-images-rendered',
  () => new TtlCache<Promise<ArrayBuffer>>(24 * 3600_000, 200),
);

export type ShareImageRequest = {
  endpoint: string;
  id: string;
  version: string | null;
  siteName: string;
  /** The request's headers: the client's address is the front server's (clientIp). */
  headers: Headers;
  now?: number;
};

type Drawing = { title: string; siteName: string; section: string };

/**
 * The image drawn from `drawing` (whose key names it whole): the one drawn or being drawn, else
 * a new one once the client's allowance admits it. Waiting on a drawing another client started
 * and was refused, the request tries again as its own.
 */
async function imageOf(
  key: string,
  drawing: Drawing,
  client: string | null,
  now?: number,
): Promise<ArrayBuffer> {
  for (let started = rendered.get(key); started; started = rendered.get(key)) {
    try {
      return await started;
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
    }
  }
  const checks = SHARE_IMAGE_LIMITS.map((limit) => ({ limit, subject: client }));
  const png = getDb()
    .then((db) => consume(db, checks, now))
    .then(() => renderShareImage(drawing))
    .then((image) => image.arrayBuffer());
  rendered.set(key, png);
  // Registered before any waiter's await: a refusal or failure is gone before they look again.
  png.catch(() => rendered.deleteWhere((value) => value === png));
  return png;
}

export async function shareImageResponse(request: ShareImageRequest): Promise<Response> {
  const subject = await readShareSubject(request.endpoint, request.id);
  if (!subject)
    return new Response('Not Found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  const current = shareImagePath(request.endpoint, request.id, subject.version);
  const asked = shareImagePath(request.endpoint, request.id, null);
  const isCurrent =
    request.version !== null && current === `${asked}?v=${encodeURIComponent(request.version)}`;
  const drawing = { title: subject.title, siteName: request.siteName, section: subject.section };
  // The item, its version and all that is drawn: never another item's image, nor an old one.
  const key = JSON.stringify([current, drawing.title, drawing.siteName, drawing.section]);
  let bytes: ArrayBuffer;
  try {
    bytes = await imageOf(key, drawing, addressKey(clientIp(request.headers)), request.now);
  } catch (error) {
    // Past the client's limit: 429 with Retry-After. A failed drawing: logged, 500.
    return errorResponse(error, { log: '[share-image] failed:', logContext: [current] });
  }
  return new Response(bytes, {
    headers: {
      'content-type': 'image/png',
      'cache-control': isCurrent ? IMMUTABLE : SHORT,
      'x-content-type-options': 'nosniff',
    },
  });
}
