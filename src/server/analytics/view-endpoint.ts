import 'server-only';
import { type Db, getDb } from '@/server/db/client';
import { endpoint } from '@/server/http/endpoint';
import type { Limit } from '@/server/rate-limit/limiter';
import { contentForPath } from './content-path';
import { insertPageView } from './page-views';
import {
  MAX_VIEW_BODY_BYTES,
  isBotUserAgent,
  japanDay,
  stripReferrer,
  viewInputSchema,
} from './view-input';

/**
 * POST /api/analytics/view: one page view from the site's beacon (navigator.sendBeacon, so
 * the body is text/plain JSON). 204 when stored or deliberately ignored (bots); 400 with a
 * JSON message for a body we cannot use; 403 from another site; 429 past the per-address limit.
 * What item the page shows and the day are decided here, never taken from the browser.
 */

/** Generous for a person (a view every 0.2 s for a minute), a wall for a script. */
export const VIEW_LIMIT: Limit = { name: 'analytics-view', max: 300, windowMs: 60_000 };

const noContent = () =>
  new Response(null, { status: 204, headers: { 'cache-control': 'private, no-store' } });

export type ViewEndpointDeps = { db?: Db; now?: () => number };

export function handleViewBeacon(request: Request, deps: ViewEndpointDeps = {}): Promise<Response> {
  const db = () => (deps.db ? Promise.resolve(deps.db) : getDb());
  const now = deps.now ?? Date.now;
  return endpoint(
    {
      name: 'analytics',
      input: viewInputSchema,
      maxBytes: MAX_VIEW_BODY_BYTES,
      plainTextJson: true,
      rateLimit: VIEW_LIMIT,
      answers: 'json',
      invalidMessage: (error) =>
        `計測データの ${error.issues[0]?.path.join('.') || '本文'} が正しくありません。`,
      messages: {
        unreadable: '計測データを読み取れませんでした。',
        tooLarge: '計測データが大きすぎます。',
      },
      db,
      now,
    },
    async ({ input, request }) => {
      if (isBotUserAgent(request.headers.get('user-agent'))) return noContent();
      // As parseViewBody (view-input.ts): no query or fragment, a stripped referrer.
      const path = input.path.split(/[?#]/, 1)[0] || '/';
      const content = contentForPath(path);
      const at = now();
      await insertPageView(await db(), {
        occurredAt: new Date(at),
        day: japanDay(at),
        path,
        endpoint: content?.endpoint ?? null,
        contentId: content?.contentId ?? null,
        referrer: stripReferrer(input.referrer),
        visitorId: input.visitorId.toLowerCase(),
      });
      return noContent();
    },
  )(request);
}
