import 'server-only';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Audience } from '@/server/features/audience';
import { cachedPagePolicy } from './csp';
import { hasLetterParam } from '@/server/features/newsletter';
import { hasGiftParam } from '@/lib/gifts/gift-link';
import { type ContentChange, changeNarrows } from '@/server/services/cms/events';
import { type ContentReads, affects } from '@/server/services/cms/reads';

/**
 * An in-process cache of the pages the framework renders per audience
 * (docs/decisions/007-pages-per-audience.md): a content page is the same for every anonymous
 * visitor, every free member and every paid member, so the front server answers repeats from
 * memory: the HTML of a page view and the RSC answers of the router's navigations and prefetches
 * alike. Each entry keeps what its render read of the content; a change, on this instance or
 * another (src/server/services/cms/events.ts), purges only the entries that read what changed, and every
 * entry is renewed after a TTL (docs/decisions/044-purge-what-a-change-showed.md).
 *
 * What may enter is decided from allow-lists: the routes below, the request headers the
 * framework varies on (checked against its `Vary` answer), the encoding actually sent, and the
 * audience the render itself noted (src/server/features/audience/render-record.ts). Which audience a
 * request belongs to is decided in src/server/features/front/request-audience.ts.
 */

export type CachedPage = {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  storedAt: number;
  /** When its render began (absent: when it was stored). */
  begunAt?: number;
  /** What its render read of the content; null: not known, so any change purges it. */
  reads: ContentReads | null;
  /** When a change made it the previous version (src/server/services/cms/reads.ts). */
  staleSince?: number;
  /** Its render's request took no compression the framework uses (so it was sent uncompressed). */
  askedUncompressed?: boolean;
};

/** A page found for a request: `stale` when a change made it the previous version. */
export type FoundPage = { page: CachedPage; stale: boolean };

const ID = '[A-Za-z0-9_-]{1,50}'; // CONTENT_ID
/**
 * The content pages: the same for everyone of an audience. Per-user pages are not here, nor the
 * search (rate limited per request).
 */
const CACHEABLE_PATHS = new RegExp(
  `^/(?:` +
    [
      '',
      'posts',
      `posts/(?!bookmark$|preview$)${ID}`,
      'insight',
      `series(?:/${ID})?`,
      `authors/${ID}`,
      `(?:feature|movies|audios|connect|jobs)(?:/${ID})?`,
      'about|faq|terms|specified-commercial-transactions|studio',
      // Signed-in readers are sent on from these: a render that reads the user is personal.
      'login|sign-up',
    ].join('|') +
    `)$`,
);

/** The request headers the framework's answers vary on (its `Vary`), all part of the key. */
const FRAMEWORK_VARY = [
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
  'next-url',
] as const;
const ALLOWED_VARY = new Set<string>([...FRAMEWORK_VARY, 'accept-encoding']);

/** Response headers that belong to one exchange, not to the page. */
const EXCHANGE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'set-cookie',
  // Each answer's own (the log names it), never the first render's again.
  'x-request-id',
]);

/** Content codings in the order the cache prefers them; identity is no coding. */
const ENCODINGS = ['br', 'gzip', 'deflate', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];

/**
 * The content codings a client accepts (RFC 9110 §12.5.3): listed with q > 0, or covered by
 * `*` with q > 0; identity unless refused by `identity;q=0` or by `*;q=0` without it.
 */
export function acceptedEncodings(header: string | string[] | undefined): Encoding[] {
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param);
      if (match) weight = Number(match[1]);
    }
    q.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const star = q.get('*');
  return ENCODINGS.filter((coding) => {
    const weight = q.get(coding) ?? (coding === 'identity' ? (star ?? 1) : star);
    return weight !== undefined && weight > 0;
  });
}

/** Whether a client takes a coding the framework compresses pages with (gzip, deflate). */
export function takesCompression(header: string | string[] | undefined): boolean {
  const accepted = acceptedEncodings(header);
  return accepted.includes('gzip') || accepted.includes('deflate');
}

const encodingOf = (value: number | string | string[] | undefined): Encoding | null => {
  if (Array.isArray(value)) return null; // more than one coding: not one to serve again
  const coding = String(value ?? 'identity')
    .trim()
    .toLowerCase();
  return (ENCODINGS as readonly string[]).includes(coding) ? (coding as Encoding) : null;
};

/** The path of a request, if it is a GET or HEAD of a content page the cache may hold. */
export function cacheablePath(req: IncomingMessage): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const url = req.url ?? '/';
  const path = url.split('?', 1)[0] ?? '/';
  // A newsletter's link is redirected without its letter parameter before it gets here; were
  // one to slip through, it is rendered uncached rather than split or carried into the cache.
  if (hasLetterParam(url)) return null;
  // A gift link's page is its reader's alone (docs/decisions/037-gift-articles.md).
  if (hasGiftParam(url)) return null;
  return CACHEABLE_PATHS.test(path) ? path : null;
}

/**
 * The key of a request for an audience, without the encoding: the URL and every header the
 * framework varies on. A server action or any other non-GET never gets here. `meter`: the
 * metered wall's line the page shows (src/server/features/front/metered-page.ts), a part of the
 * audience's key.
 */
export function pageKey(req: IncomingMessage, audience: Audience, meter?: string): string {
  const varying = FRAMEWORK_VARY.map((name) => {
    const value = req.headers[name];
    return `${name}:${Array.isArray(value) ? value.join(',') : (value ?? '')}`;
  });
  const who = meter === undefined ? audience : `${audience} ${meter}`;
  return [who, req.url ?? '/', ...varying].join('\n');
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly now: () => number = Date.now,
    /** How long a page may still be served as the previous version while it is renewed. */
    private readonly staleMs = 5_000,
  ) {}

  /**
   * The entry for this key in an encoding the client accepts, if one is stored. `renewing`: a
   * render of the page is under way, so its previous version is served past `staleMs` too (its
   * reader would only wait for that render); the render gives up after a bounded time
   * (src/server/features/front/page-refresh.ts).
   */
  find(
    key: string,
    acceptEncoding: string | string[] | undefined,
    renewing = false,
  ): FoundPage | undefined {
    const compresses = takesCompression(acceptEncoding);
    for (const encoding of acceptedEncodings(acceptEncoding)) {
      const hit = this.get(`${key}\n${encoding}`, renewing);
      // Not the uncompressed copy a client without compression left (curl, a crawler) to one
      // the framework would compress for: its own render is compressed and kept beside it.
      if (!hit || (hit.askedUncompressed && compresses)) continue;
      return { page: hit, stale: this.now() >= this.staleSince(hit) };
    }
    return undefined;
  }

  /** When a page became its previous version: a change made it so, or its TTL ran out. */
  private staleSince(page: CachedPage): number {
    return Math.min(page.staleSince ?? Number.POSITIVE_INFINITY, page.storedAt + this.ttlMs);
  }

  /**
   * Files a page under the encoding it was actually sent in. A previous version (a render an
   * edit overtook) never replaces a page whose render began later.
   */
  store(key: string, page: CachedPage): void {
    const encoding = encodingOf(page.headers['content-encoding']);
    if (!encoding) return;
    const full = `${key}\n${encoding}`;
    const held = this.entries.get(full);
    const begun = (p: CachedPage) => p.begunAt ?? p.storedAt;
    if (page.staleSince !== undefined && held && begun(held) > begun(page)) return;
    this.set(full, page);
  }

  get(key: string, renewing = false): CachedPage | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (!renewing && this.now() - this.staleSince(hit) >= this.staleMs) {
      this.delete(key);
      return undefined;
    }
    return hit;
  }

  set(key: string, page: CachedPage): void {
    if (page.body.length > this.maxBytes / 16) return;
    this.delete(key);
    this.entries.set(key, page);
    this.bytes += page.body.length;
    // Oldest first out, until it fits.
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /**
   * After a content change: the pages whose render read what changed are dropped when the
   * change narrows what a reader may be shown, and otherwise kept as the previous version, served
   * only while one render renews them and for `staleMs` at most. Returns how many it touched.
   */
  purge(change: ContentChange): number {
    const narrows = changeNarrows(change);
    const now = this.now();
    let touched = 0;
    for (const [key, page] of this.entries) {
      if (page.reads && !affects(page.reads, change)) continue;
      touched++;
      if (narrows) this.delete(key);
      else page.staleSince ??= now;
    }
    return touched;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes of the bodies held (what maxBytes bounds). */
  get heldBytes(): number {
    return this.bytes;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(key);
  }
}

export function sendCachedPage(
  page: Pick<CachedPage, 'status' | 'headers' | 'body'>,
  req: IncomingMessage,
  res: ServerResponse,
  setCookie?: string,
  /** `stale`: the previous version, while the server renews it. */
  state: 'hit' | 'stale' = 'hit',
): void {
  res.writeHead(page.status, {
    ...page.headers,
    ...(setCookie ? { 'set-cookie': setCookie } : {}),
    'content-length': String(page.body.length),
    'x-page-cache': state,
  });
  res.end(req.method === 'HEAD' ? undefined : page.body);
}

/** Whether an answer as the framework finished it is one to keep (status, type, cookies, Vary). */
function isStorable(res: ServerResponse, ownCookie: string | undefined): boolean {
  if (res.statusCode !== 200) return false;
  const type = String(res.getHeader('content-type') ?? '');
  if (!type.startsWith('text/html') && !type.startsWith('text/x-component')) return false;
  const cookies = res.getHeader('set-cookie');
  const list = cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [String(cookies)];
  if (list.some((cookie) => cookie !== ownCookie)) return false;
  const vary = String(res.getHeader('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return vary.every((name) => ALLOWED_VARY.has(name));
}

/**
 * A nonce served again is no nonce: the stored answer's policy names its inline scripts' hashes
 * instead (src/server/features/front/csp.ts). False when the body cannot be read to hash them.
 */
function replayablePolicy(headers: OutgoingHttpHeaders, body: Buffer): boolean {
  const policy = headers['content-security-policy'];
  if (typeof policy !== 'string') return true;
  const replay = cachedPagePolicy(
    policy,
    headers['content-type'],
    body,
    headers['content-encoding'],
  );
  if (replay === null) return false;
  headers['content-security-policy'] = replay;
  return true;
}

/**
 * A copy of an answer as the framework writes it, while it streams to the client
 * (src/server/features/front/front-response.ts hands over each chunk, and the response once it ended).
 * `store` gets it when it is a page to keep: a 200 HTML or RSC answer that sets no cookie but
 * the server's own and varies on nothing outside the key. Its CSP is rewritten for replay
 * (replayablePolicy).
 */
export class PageCopy {
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly store: (page: Omit<CachedPage, 'reads'>) => void,
    private readonly ownCookie?: string,
  ) {}

  /** A chunk written (write's or end's arguments). */
  keep(chunk: unknown, encoding: unknown): void {
    if (Buffer.isBuffer(chunk)) this.chunks.push(chunk);
    else if (chunk instanceof Uint8Array) this.chunks.push(Buffer.from(chunk));
    else if (typeof chunk === 'string')
      this.chunks.push(
        Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
  }

  /** The answer ended: stored when it is a page to keep. */
  ended(res: ServerResponse): void {
    if (!isStorable(res, this.ownCookie)) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders()))
      if (!EXCHANGE_HEADERS.has(name) && value !== undefined) headers[name] = value;
    const body = Buffer.concat(this.chunks);
    if (replayablePolicy(headers, body))
      this.store({ status: 200, headers, body, storedAt: Date.now() });
  }
}
