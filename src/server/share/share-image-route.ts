import 'server-only';
import { TtlCache } from '@/lib/ttl-cache';
import { shareImagePath } from '@/lib/share/share-image-path';
import { renderShareImage } from './share-image';
import { readShareSubject } from './share-subject';

/**
 * The generated share image's answer. Its address names the item's version
 * (shareImagePath): asked with the current one it is cached for good (a new version is a new
 * address); with another or none, for five minutes. Rendered once per version per instance.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';
const rendered = new TtlCache<Promise<ArrayBuffer>>(24 * 3600_000, 200);

export type ShareImageRequest = {
  endpoint: string;
  id: string;
  version: string | null;
  siteName: string;
};

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
  const key = `${request.siteName}\n${current}\n${subject.title}`;
  let png = rendered.get(key);
  if (!png) {
    png = renderShareImage({
      title: subject.title,
      siteName: request.siteName,
      section: subject.section,
    }).then((image) => image.arrayBuffer());
    rendered.set(key, png);
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await png;
  } catch (error) {
    rendered.clear();
    throw error;
  }
  return new Response(bytes, {
    headers: {
      'content-type': 'image/png',
      'cache-control': isCurrent ? IMMUTABLE : SHORT,
      'x-content-type-options': 'nosniff',
    },
  });
}
