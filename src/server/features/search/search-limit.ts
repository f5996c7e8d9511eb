import 'server-only';
import { type Db, getDb } from '@/server/platform/db/client';
import { clientIp } from '@/server/platform/http/request-origin';
import { type Limit, RateLimitedError, consume } from '@/server/platform/rate-limit/limiter';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { escapeHtml } from '@/lib/text/escape-html';

/**
 * Searches per client address. Nobody reading the site searches 60 times a minute or 600 times
 * an hour; a script that guesses text one character at a time needs thousands of searches.
 * Counted in the database (every instance shares them), only for searches that run queries.
 */
export const SEARCH_LIMITS: readonly Limit[] = [
  { name: 'search-minute', max: 60, windowMs: 60_000 },
  { name: 'search-hour', max: 600, windowMs: 3_600_000 },
];

/** Counts one search; the seconds to wait when the address is over a limit, else null. */
export async function consumeSearch(
  db: Db,
  ip: string | null,
  now?: number,
): Promise<number | null> {
  // One client is an IPv4 address or an IPv6 /64 (src/server/platform/rate-limit/client-address.ts).
  const subject = addressKey(ip);
  try {
    await consume(
      db,
      SEARCH_LIMITS.map((limit) => ({ limit, subject })),
      now,
    );
    return null;
  } catch (error) {
    if (error instanceof RateLimitedError) return error.retryAfterSeconds;
    throw error;
  }
}

/** Counts a search made through the site; the seconds to wait when over a limit, else null. */
export async function searchRateLimit(requestHeaders: Headers): Promise<number | null> {
  return consumeSearch(await getDb(), clientIp(requestHeaders));
}

/** Where a client over the limit is sent: a page answering 429 (src/app/search/busy). */
export const SEARCH_BUSY_PATH = '/search/busy';

export function searchBusyHref(q: string, retryAfterSeconds: number): string {
  const params = new URLSearchParams({ q, after: String(Math.ceil(retryAfterSeconds)) });
  return `${SEARCH_BUSY_PATH}?${params.toString()}`;
}

/**
 * The answer over the limit: 429, in Japanese, with Retry-After. A standalone page (a route
 * handler, not the site's layout) because only a route handler can choose its status; never
 * cached. `after` comes from the URL and only sets the wording, clamped.
 */
export function searchBusyResponse(url: URL): Response {
  const after = Number(url.searchParams.get('after'));
  const seconds = Number.isInteger(after) && after > 0 ? Math.min(after, 3600) : 60;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const q = (url.searchParams.get('q') ?? '').slice(0, 100);
  const again = q ? `/search?${new URLSearchParams({ q }).toString()}` : '/search';
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>検索の回数が多すぎます</title>
<style>
body{margin:0;color:#111;background:#fff;font:16px/1.9 'Hiragino Sans','Hiragino Kaku Gothic ProN','Noto Sans JP','Noto Sans CJK JP','Yu Gothic UI',Meiryo,system-ui,sans-serif}
main{max-width:40rem;margin:0 auto;padding:4rem 1rem}
.code{display:inline-block;margin:0;padding:0 .5rem;background:#ebff00;font-weight:700;letter-spacing:.08em}
h1{margin:1rem 0;font-size:clamp(1.5rem,5vw,2.25rem);line-height:1.45;font-feature-settings:"palt"}
.text{color:#555}
.links{display:flex;flex-wrap:wrap;gap:1.5rem}
a{color:inherit}
</style>
</head>
<body>
<main>
<p class="code">429</p>
<h1>検索の回数が多すぎます</h1>
<p class="text">短い時間に多くの検索が行われたため、この接続からの検索を一時的に止めています。${minutes} 分ほど待ってから、もう一度お試しください。</p>
<p class="links"><a href="${escapeHtml(again)}">もう一度検索する</a><a href="/">トップページへ戻る</a></p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status: 429,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': String(seconds),
      'x-robots-tag': 'noindex',
    },
  });
}
