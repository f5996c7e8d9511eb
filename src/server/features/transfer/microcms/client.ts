import 'server-only';
import { TransferError } from '../errors';

/**
 * A reader of a hosted microCMS's content API for the import: one request at a time, paced
 * below the service's limit (GET: 60 requests a second, microcms-api.md §1.7), and on a 429
 * waiting as the answer says (Retry-After, else X-RateLimit-Reset) or, failing that, backing
 * off exponentially; 5xx and network failures are retried the same way. The key goes in the
 * X-MICROCMS-API-KEY header to the API host only, and no message ever carries it.
 */

export type MicroCmsClientOptions = {
  /** `https://<service>.microcms.io/api/v1`, normalised by normalizeBaseUrl. */
  baseUrl: string;
  apiKey: string;
  /** Requests a second we allow ourselves (default 10). */
  requestsPerSecond?: number;
  /** Attempts of one request before giving up (default 8). */
  maxAttempts?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told of each wait after a 429 (tests, the job's log). */
  onRateLimited?: (waitMs: number) => void;
};

const MAX_WAIT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 60_000;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Loopback hosts may be reached over plain http (another instance on this machine). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/**
 * The API root from what an admin typed: `https://svc.microcms.io`, with or without
 * `/api/v1` and a trailing slash. Null when it is not such an address (no credentials,
 * query or fragment; https unless on this machine).
 */
export function normalizeBaseUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    return null;
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== '/api/v1') return null;
  return `${url.origin}/api/v1`;
}

/** Milliseconds to wait after a 429, from its headers; null when they say nothing usable. */
export function waitFromHeaders(headers: Headers, now: number): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_WAIT_MS);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - now), MAX_WAIT_MS);
  }
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (headers.has('x-ratelimit-reset') && Number.isFinite(reset) && reset > 0)
    return Math.min(Math.max(0, reset * 1000 - now) + 50, MAX_WAIT_MS);
  return null;
}

export class MicroCmsClient {
  readonly baseUrl: string;
  readonly host: string;
  private readonly apiKey: string;
  private readonly interval: number;
  private readonly maxAttempts: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onRateLimited?: (waitMs: number) => void;
  private nextSlot = 0;
  /** 429s seen, for the result. */
  rateLimited = 0;

  constructor(options: MicroCmsClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.host = new URL(this.baseUrl).host;
    this.apiKey = options.apiKey;
    this.interval = 1000 / (options.requestsPerSecond ?? 10);
    this.maxAttempts = options.maxAttempts ?? 8;
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? defaultSleep;
    this.onRateLimited = options.onRateLimited;
  }

  /** Waits for this request's turn in the pace. */
  private async pace(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.interval;
    if (slot > now) await this.sleep(slot - now);
  }

  /**
   * One request with the retries; `withKey` only for the API host. Returns the response of a
   * 2xx or a 404, throws a TransferError for anything else once retries are spent.
   */
  async request(url: string, options: { withKey: boolean; what: string }): Promise<Response> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      await this.pace();
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          headers: options.withKey ? { 'X-MICROCMS-API-KEY': this.apiKey } : {},
          redirect: options.withKey ? 'error' : 'follow',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch {
        lastProblem = '接続できませんでした';
        await this.sleep(this.backoff(attempt));
        continue;
      }
      if (response.ok || response.status === 404) return response;
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 429) {
        this.rateLimited++;
        const wait = waitFromHeaders(response.headers, Date.now()) ?? this.backoff(attempt);
        this.onRateLimited?.(wait);
        lastProblem = 'リクエストが多すぎると言われ続けました (429)';
        // The pace starts again after the wait, so the next requests do not pile up at once.
        this.nextSlot = Date.now() + wait;
        await this.sleep(wait);
        continue;
      }
      if (response.status >= 500) {
        lastProblem = `サーバーエラー (${response.status})`;
        await this.sleep(this.backoff(attempt));
        continue;
      }
      throw new TransferError(this.refusal(response.status, options.what));
    }
    throw new TransferError(`${options.what} を取得できませんでした: ${lastProblem}。`);
  }

  private backoff(attempt: number): number {
    const base = Math.min(500 * 2 ** (attempt - 1), MAX_WAIT_MS);
    return base / 2 + Math.random() * (base / 2);
  }

  private refusal(status: number, what: string): string {
    if (status === 401)
      return `${this.host} が API キーを受け付けませんでした (401)。キーを確かめてください。`;
    if (status === 400 || status === 403)
      return `${this.host} が ${what} の取得を断りました (${status})。キーに GET 権限があるか確かめてください。`;
    return `${this.host} から ${what} を取得できませんでした (${status})。`;
  }

  /** GET {endpoint}[?query] as JSON; null when the service has no such API (404). */
  async getJson(endpoint: string, query: Record<string, string>): Promise<unknown> {
    const url = new URL(`${this.baseUrl}/${encodeURIComponent(endpoint)}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const response = await this.request(url.toString(), { withKey: true, what: endpoint });
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    try {
      return await response.json();
    } catch {
      throw new TransferError(`${this.host} の ${endpoint} の応答を JSON として読めません。`);
    }
  }
}
