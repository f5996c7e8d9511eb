import 'server-only';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * An in-process cache of the HTML the framework renders for anonymous readers (DESIGN.md
 * decision 6: render per audience). A page for a visitor without a session is the same for
 * every such visitor (per-user bits come from /api/me after hydration), so the front server
 * answers repeats from memory. Entries are dropped on every content change and after a TTL
 * (changes made through another instance); nothing with a cookie of ours, a draft, a flash
 * message or a framework data request (RSC) ever enters or is answered from it.
 */

export type CachedPage = {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  storedAt: number;
};

/** Cookies that make a response personal: a session, preview/draft mode, a one-time message. */
const PERSONAL_COOKIES =
  /(?:^|;\s*)(?:__Secure-)?(?:axis\.session_token|axis_preview|__prerender_bypass|axis_flash)=/;
const NOT_PAGES = /^\/(?:api|_next|uploads|media|admin|account)(?:\/|$)|\/preview(?:\/|$)/;
const FRAMEWORK_REQUEST_HEADERS = [
  'rsc',
  'next-action',
  'next-router-prefetch',
  'next-router-state-tree',
];
/** Response headers that belong to one exchange, not to the page. */
const EXCHANGE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'set-cookie',
]);

/** The cache key of an anonymous page request, or null when the request may not use the cache. */
export function anonymousPageKey(req: IncomingMessage): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const url = req.url ?? '/';
  const path = url.split('?', 1)[0] ?? '/';
  if (NOT_PAGES.test(path) || url.includes('_rsc=')) return null;
  if (FRAMEWORK_REQUEST_HEADERS.some((h) => req.headers[h] !== undefined)) return null;
  if (PERSONAL_COOKIES.test(req.headers.cookie ?? '')) return null;
  // The framework compresses for clients that accept gzip: one entry per encoding.
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  return `${gzip ? 'gz' : 'id'} ${url}`;
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;
  private cleared = 0;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedPage | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.storedAt >= this.ttlMs) {
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

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.cleared++;
  }

  /** Counts clears: a page rendered before one must not be stored after it. */
  get generation(): number {
    return this.cleared;
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(key);
  }
}

export function sendCachedPage(page: CachedPage, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(page.status, {
    ...page.headers,
    'content-length': String(page.body.length),
    'x-page-cache': 'hit',
  });
  res.end(req.method === 'HEAD' ? undefined : page.body);
}

/**
 * Lets the response stream to the client as the framework writes it, keeping a copy; calls
 * `store` once it ended, when it is a cacheable page: a 200 HTML answer that sets no cookie.
 */
export function capturePage(res: ServerResponse, store: (page: CachedPage) => void): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (Buffer.isBuffer(chunk)) chunks.push(chunk);
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    else if (typeof chunk === 'string')
      chunks.push(
        Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    const result = end(chunk, ...rest);
    const type = String(res.getHeader('content-type') ?? '');
    if (
      res.statusCode === 200 &&
      type.startsWith('text/html') &&
      res.getHeader('set-cookie') === undefined
    ) {
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(res.getHeaders()))
        if (!EXCHANGE_HEADERS.has(name) && value !== undefined) headers[name] = value;
      store({ status: 200, headers, body: Buffer.concat(chunks), storedAt: Date.now() });
    }
    return result;
  }) as typeof res.end;
}
