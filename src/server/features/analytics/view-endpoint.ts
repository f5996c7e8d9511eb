import 'server-only';
import { sessionAudienceOf } from '@/server/features/audience';
import { paywallShown } from '@/server/features/analytics/paywall-shown';
import type { Viewer } from '@/lib/access/post-access';
import { viewerFromHeaders } from '@/server/features/access';
import { type Db, getDb } from '@/server/platform/db/client';
import { env } from '@/env';
import { SESSION_COOKIES, readCookieHeader } from '@/server/platform/http/cookies';
import { endpoint } from '@/server/features/identity';
import type { Limit } from '@/server/platform/rate-limit/limiter';
import {
  asksNotToTrack,
  contentForPath,
  type ContentRef,
  pathStartCookie,
  pathStartOf,
} from '@/server/features/attribution';
import { noteSeatReadOf } from '@/server/features/organizations';
import { insertPageView } from './page-views';
import { MAX_VIEW_BODY_BYTES, japanDay, stripReferrer, viewInputSchema } from './view-input';
import { isBotUserAgent } from '@/server/platform/http/user-agent';

/**
 * POST /api/analytics/view: one page view from the site's beacon (navigator.sendBeacon, so
 * the body is text/plain JSON). 204 when stored or deliberately ignored (bots); 400 with a
 * JSON message for a body we cannot use; 403 from another site; 429 past the per-address limit.
 * What item the page shows and the day are decided here, never taken from the browser.
 */

/** Generous for a person (a view every 0.2 s for a minute), a wall for a script. */
export const VIEW_LIMIT: Limit = { name: 'analytics-view', max: 300, windowMs: 60_000 };

const noContent = (setCookie?: string) =>
  new Response(null, {
    status: 204,
    headers: {
      'cache-control': 'private, no-store',
      ...(setCookie ? { 'set-cookie': setCookie } : {}),
    },
  });

export type ViewEndpointDeps = {
  db?: Db;
  now?: () => number;
  /** Who is viewing, from the request's session (the access policy's viewer). */
  viewer?: (headers: Headers) => Promise<Viewer>;
  /** Whether the item's page shows that viewer its paywall (access/paywall-shown.ts). */
  paywall?: (viewer: Viewer, ref: ContentRef) => Promise<boolean>;
  /** Notes a paid reader's post for their organisation's reading report (decision 058). */
  seatRead?: (db: Db, headers: Headers, contentId: string, at: Date) => Promise<void>;
};

/** The viewer of a beacon: no session cookie is a visitor, without asking the database. */
async function beaconViewer(headers: Headers): Promise<Viewer> {
  const cookies = readCookieHeader(headers.get('cookie') ?? undefined);
  if (!SESSION_COOKIES.some((name) => cookies?.has(name))) return { kind: 'anonymous' };
  return viewerFromHeaders(headers);
}

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
      const viewer = await (deps.viewer ?? beaconViewer)(request.headers);
      // The browser's word that a paywall was shown counts only where the policy cuts the item.
      const paywall =
        input.paywall === true &&
        content !== null &&
        (await (deps.paywall ?? paywallShown)(viewer, content));
      const at = now();
      await insertPageView(await db(), {
        occurredAt: new Date(at),
        day: japanDay(at),
        path,
        endpoint: content?.endpoint ?? null,
        contentId: content?.contentId ?? null,
        referrer: stripReferrer(input.referrer),
        visitorId: input.visitorId.toLowerCase(),
        audience: sessionAudienceOf(viewer),
        paywall,
      });
      if (content?.endpoint === 'posts' && viewer.kind === 'member' && viewer.paid)
        await (deps.seatRead ?? noteSeatReadOf)(
          await db(),
          request.headers,
          content.contentId,
          new Date(at),
        );
      // The first paywall met starts the reader's path to payment (attribution.ts).
      const startsPath =
        paywall && !asksNotToTrack(request.headers) && pathStartOf(request.headers) === null;
      return noContent(
        startsPath
          ? pathStartCookie(content, { secure: env().SITE_URL.startsWith('https:') })
          : undefined,
      );
    },
  )(request);
}
