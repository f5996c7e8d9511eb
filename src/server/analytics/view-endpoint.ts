import 'server-only';
import { type Db, getDb } from '@/server/db/client';
import { FORBIDDEN_ORIGIN_MESSAGE, jsonAnswer } from '@/server/http/form-endpoint';
import { clientIp, isSameOriginRequest } from '@/server/http/request-origin';
import { type Limit, RateLimitedError, consume } from '@/server/rate-limit/limiter';
import { contentForPath } from './content-path';
import { insertPageView } from './page-views';
import { MAX_VIEW_BODY_BYTES, isBotUserAgent, japanDay, parseViewBody } from './view-input';

/**
 * POST /api/analytics/view: one page view from the site's beacon (navigator.sendBeacon, so
 * the body is text/plain JSON). 204 when stored or deliberately ignored (bots); 400 with a
 * JSON message for a body we cannot use; 403 from another site; 429 past the per-address limit.
 * What item the page shows and the day are decided here, never taken from the browser.
 */

/** Generous for a person (a view every 0.2 s for a minute), a wall for a script. */
export const VIEW_LIMIT: Limit = { name: 'analytics-view', max: 300, windowMs: 60_000 };

const TOO_LARGE_MESSAGE = '計測データが大きすぎます。';
const UNREADABLE_VIEW_MESSAGE = '計測データを読み取れませんでした。';

const noContent = () =>
  new Response(null, { status: 204, headers: { 'cache-control': 'private, no-store' } });

type BodyText = { ok: true; text: string } | { ok: false; status: 400 | 413; message: string };

/** The body as UTF-8 text, read no further than maxBytes whatever Content-Length says. */
async function readBodyText(request: Request, maxBytes: number): Promise<BodyText> {
  const tooLarge = { ok: false, status: 413, message: TOO_LARGE_MESSAGE } as const;
  const unreadable = { ok: false, status: 400, message: UNREADABLE_VIEW_MESSAGE } as const;
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return tooLarge;
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge;
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return unreadable;
  }
}

export type ViewEndpointDeps = { db?: Db; now?: () => number };

export async function handleViewBeacon(
  request: Request,
  deps: ViewEndpointDeps = {},
): Promise<Response> {
  if (!isSameOriginRequest(request)) {
    return jsonAnswer(403, { message: FORBIDDEN_ORIGIN_MESSAGE });
  }
  const now = deps.now?.() ?? Date.now();
  const db = deps.db ?? (await getDb());
  // Counted before the body is read, so a flood of junk is limited as well.
  try {
    await consume(db, [{ limit: VIEW_LIMIT, subject: clientIp(request.headers) }], now);
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return jsonAnswer(
      429,
      { message: error.message },
      new Headers({ 'retry-after': String(error.retryAfterSeconds) }),
    );
  }

  const body = await readBodyText(request, MAX_VIEW_BODY_BYTES);
  if (!body.ok) return jsonAnswer(body.status, { message: body.message });
  const parsed = parseViewBody(body.text);
  if (!parsed.ok) return jsonAnswer(400, { message: parsed.message });
  if (isBotUserAgent(request.headers.get('user-agent'))) return noContent();

  const { path, referrer, visitorId } = parsed.view;
  const content = contentForPath(path);
  await insertPageView(db, {
    occurredAt: new Date(now),
    day: japanDay(now),
    path,
    endpoint: content?.endpoint ?? null,
    contentId: content?.contentId ?? null,
    referrer,
    visitorId,
  });
  return noContent();
}
