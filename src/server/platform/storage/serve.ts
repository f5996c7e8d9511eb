import 'server-only';
import { mediaTypeForKey } from './media-types';
import { PROTECTED_PREFIX, verifyMediaSignature } from '@/server/platform/security/signing';
import type { ByteRange, MediaStorage, StoredObjectInfo } from './media-storage';
import { getStorage } from './storage';
import { isValidStorageKey } from '@/lib/media/storage-key';

/**
 * Serving stored files over HTTP: conditional requests (ETag / Last-Modified → 304), single
 * byte ranges (206, 416) for seeking in audio and video, and headers that stop a browser from
 * treating an upload as anything but the media type we checked at upload.
 */

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  // If an upload is ever opened as a document, it can run nothing and reach nothing.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
} as const;

function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ message }), {
    status,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-store',
    },
  });
}

export const notFoundResponse = () => jsonError(404, 'ファイルが見つかりません。');

/**
 * The single range a Range header asks for, 'unsatisfiable' (→ 416), or null to answer with
 * the whole file (no header, another unit, several ranges, or a malformed one — RFC 9110
 * lets a server ignore those).
 */
export function parseRange(
  header: string | null,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

const stripWeak = (tag: string) => tag.trim().replace(/^W\//, '');

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const own = stripWeak(etag);
  return header.split(',').some((tag) => stripWeak(tag) === own);
}

function notModified(request: Request, info: StoredObjectInfo): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) return etagMatches(ifNoneMatch, info.etag);
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  return !Number.isNaN(since) && Math.floor(info.lastModified.getTime() / 1000) * 1000 <= since;
}

/** If-Range: the range applies only while the file is still the one the client has part of. */
function ifRangeHolds(request: Request, info: StoredObjectInfo): boolean {
  const ifRange = request.headers.get('if-range');
  if (ifRange === null) return true;
  const value = ifRange.trim();
  if (value.startsWith('"')) return value === info.etag; // strong comparison only
  if (value.startsWith('W/')) return false;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(info.lastModified.getTime() / 1000) * 1000 === date;
}

export type ServeOptions = {
  storage?: MediaStorage;
  contentType: string;
  cacheControl: string;
  headers?: Record<string, string>;
};

/** Answers GET or HEAD for one stored object. */
export async function serveStoredObject(
  request: Request,
  key: string,
  options: ServeOptions,
): Promise<Response> {
  const storage = options.storage ?? getStorage();
  const info = await storage.head(key);
  if (!info) return notFoundResponse();

  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    'content-type': options.contentType,
    'cache-control': options.cacheControl,
    'accept-ranges': 'bytes',
    etag: info.etag,
    'last-modified': info.lastModified.toUTCString(),
    ...options.headers,
  };
  if (notModified(request, info)) return new Response(null, { status: 304, headers });

  const range = ifRangeHolds(request, info)
    ? parseRange(request.headers.get('range'), info.size)
    : null;
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { ...headers, 'content-range': `bytes */${info.size}` },
    });
  }
  const status = range ? 206 : 200;
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${info.size}`;
  headers['content-length'] = String(range ? range.end - range.start + 1 : info.size);
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  if (info.size === 0) return new Response(null, { status, headers });

  const object = await storage.get(key, range ? { range } : {});
  if (!object) return notFoundResponse();
  return new Response(object.body, { status, headers });
}

// ---------------------------------------------------------------------------------------------
// The two routes

/** Random (upload) or content-hashed names never change content, so caches may keep them. */
export function isImmutableName(key: string): boolean {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const stem = name.replace(/\.[a-z0-9]+$/, '');
  return /^[0-9a-f]{16,}$/.test(stem) || /[.-][0-9a-f]{8,}$/.test(stem);
}

/** What /uploads serves: checked images, and the demo media shipped with the site. */
function publicUpload(segments: readonly string[]) {
  const key = segments.join('/');
  if (!isValidStorageKey(key)) return null;
  const type = mediaTypeForKey(key);
  if (!type) return null;
  if (key.startsWith('images/') && type.kind === 'image') return { key, type };
  if (key.startsWith('demo/')) return { key, type };
  return null;
}

/** GET/HEAD /uploads/[...path]. */
export async function servePublicUpload(
  request: Request,
  segments: readonly string[],
  storage?: MediaStorage,
): Promise<Response> {
  const found = publicUpload(segments);
  if (!found) return notFoundResponse();
  return serveStoredObject(request, found.key, {
    storage,
    contentType: found.type.contentType,
    cacheControl: isImmutableName(found.key)
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=3600',
  });
}

const FORBIDDEN_MESSAGES = {
  expired: '再生用リンクの有効期限が切れています。ページを再読み込みしてください。',
  invalid: 'このメディアを再生する権限がないか、リンクが正しくありません。',
} as const;

/** GET/HEAD /media/[...path]: protected media, only with a valid, unexpired signature. */
export async function serveProtectedMedia(
  request: Request,
  segments: readonly string[],
  options: { storage?: MediaStorage; now?: Date } = {},
): Promise<Response> {
  const key = segments.join('/');
  const type = isValidStorageKey(key) && key.startsWith(PROTECTED_PREFIX) && mediaTypeForKey(key);
  if (!type) return notFoundResponse();
  const params = new URL(request.url).searchParams;
  const exp = params.get('exp');
  const now = options.now ?? new Date();
  const check = verifyMediaSignature(key, exp, params.get('sig'), now);
  if (check !== 'valid') return jsonError(403, FORBIDDEN_MESSAGES[check]);
  // The URL stops working at exp; no cache may keep the answer longer than that.
  const remaining = Math.max(0, Math.min(86_400, Number(exp) - Math.floor(now.getTime() / 1000)));
  return serveStoredObject(request, key, {
    storage: options.storage,
    contentType: type.contentType,
    cacheControl: `private, max-age=${remaining}`,
    headers: { 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' },
  });
}

/**
 * The GET/HEAD handler of a catch-all file route (/uploads/[...path], /media/[...path]): the
 * route's path segments, served as `serve` serves them (the app's own storage).
 */
export function pathRouteHandler(
  serve: (request: Request, segments: readonly string[]) => Promise<Response>,
) {
  return async (
    request: Request,
    { params }: { params: Promise<{ path: string[] }> },
  ): Promise<Response> => serve(request, (await params).path);
}
