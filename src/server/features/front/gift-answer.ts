import 'server-only';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { hasGiftParam } from '@/lib/gifts/gift-link';

/**
 * A request carrying a gift link's token (docs/decisions/037-gift-articles.md): the page cache
 * never answers it nor files its answer (cacheablePath), and the answer is marked for its
 * reader alone, whatever the framework set: `Cache-Control: private, no-store` (no shared or
 * browser cache keeps the gifted page), `X-Robots-Tag: noindex` and `Referrer-Policy:
 * no-referrer` (the token does not travel on in a Referer).
 */

const PRIVATE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'private, no-store',
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
};

export function isGiftRequest(req: IncomingMessage): boolean {
  return hasGiftParam(req.url ?? '/');
}

/** Headers given to writeHead itself, less those this module sets. */
function withoutOurs(headers: unknown): unknown {
  if (Array.isArray(headers)) {
    const kept: unknown[] = [];
    // A raw list: name, value, name, value…
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (!(String(headers[i]).toLowerCase() in PRIVATE_HEADERS))
        kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  if (typeof headers !== 'object' || headers === null) return headers;
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders))
    if (!(name.toLowerCase() in PRIVATE_HEADERS)) kept[name] = value;
  return kept;
}

/**
 * As the head of a gift link's answer is written (src/server/features/front/front-response.ts): the
 * private headers set, whatever the handler set or gives writeHead, which gets the rest.
 */
export function privateHead(res: ServerResponse, writeHeadArgs: unknown[]): unknown[] {
  for (const [name, value] of Object.entries(PRIVATE_HEADERS)) res.setHeader(name, value);
  const args = [...writeHeadArgs];
  const last = args.length - 1;
  if (last >= 0 && typeof args[last] === 'object') args[last] = withoutOurs(args[last]);
  return args;
}
