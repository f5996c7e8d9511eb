import 'server-only';
import { env } from '@/env';
import type { Viewer } from '@/lib/access/post-access';
import { viewerForUser } from '@/server/features/access';
import { type ContentClient, siteContent } from '@/server/features/content';
import { XML_CACHE_CONTROL } from '@/server/features/seo';
import { type Db, getDb } from '@/server/platform/db/client';
import { mailFrom } from '@/server/platform/mail/mailer';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { mediaTypeForKey } from '@/server/platform/storage/media-types';
import { notFoundResponse, serveStoredObject } from '@/server/platform/storage/serve';
import { getStorage } from '@/server/platform/storage/storage';
import { protectedMediaKey } from '@/server/platform/security/signing';
import { type FeedSite, episodeFileName, opensTo, podcastXml, readEpisodes } from './feed';
import { FEED_TOKEN, feedOwner } from './tokens';

/**
 * The podcast routes' answers (docs/decisions/062-private-podcast-feeds.md):
 * - `/podcast/<token>/feed.xml` and `/podcast/<token>/episodes/<id>.<ext>`: the reader's feed and
 *   its files. The token is looked up on every request and the reader's access decided as the
 *   pages decide it (viewerForUser: plans, an organisation's seat), so a revoked address answers
 *   403 and a plan that ended takes the members' episodes out of the feed and their files to 403,
 *   on the next request. Both are `private, no-store`: no proxy may keep them past either.
 * - `/podcast/feed.xml` and `/podcast/episodes/<id>.<ext>`: the episodes open to everyone,
 *   cacheable.
 * A file answers Range (206, 416), HEAD and conditional requests as every stored file does.
 */

export type PodcastDeps = {
  db?: () => Promise<Db>;
  content?: () => Pick<ContentClient, 'get'>;
  storage?: MediaStorage;
  site?: FeedSite;
};

const PRIVATE = 'private, no-store';
const ANONYMOUS: Viewer = { kind: 'anonymous' };
const PRIVATE_HEADERS = { 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };

/** The address in MAIL_FROM (`"Name" <address>` or the address alone). */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from;

function siteOf(deps: PodcastDeps): FeedSite {
  if (deps.site) return deps.site;
  const { SITE_URL, SITE_NAME, CONTACT_TO } = env();
  return {
    siteUrl: SITE_URL,
    siteName: SITE_NAME,
    ownerEmail: CONTACT_TO ?? addressOf(mailFrom()),
  };
}

export const REVOKED_MESSAGE =
  'このフィードの URL は無効です。アカウントページ（/account）で現在の URL をご確認ください。';
export const CLOSED_MESSAGE =
  'この回はご契約中のプランではお聴きいただけません。プランはアカウントページでご確認ください。';

function refused(message: string): Response {
  return new Response(JSON.stringify({ message }), {
    status: 403,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': PRIVATE,
      ...PRIVATE_HEADERS,
    },
  });
}

/** The viewer a token stands for: its reader's, or null when it is not a live feed's. */
async function viewerOfToken(token: string, deps: PodcastDeps): Promise<Viewer | null> {
  if (!FEED_TOKEN.test(token)) return null; // no database read for what is no token
  const owner = await feedOwner(await (deps.db ?? getDb)(), token);
  return owner ? viewerForUser(owner) : null;
}

async function feedAnswer(
  viewer: Viewer,
  token: string | null,
  deps: PodcastDeps,
): Promise<Response> {
  const episodes = await readEpisodes((deps.content ?? siteContent)());
  const open = episodes.filter((episode) => opensTo(viewer, episode));
  const xml = await podcastXml(open, token, siteOf(deps), deps.storage ?? getStorage());
  return new Response(xml, {
    headers: {
      'content-type': 'application/rss+xml; charset=utf-8',
      'cache-control': token ? PRIVATE : XML_CACHE_CONTROL,
      ...(token ? PRIVATE_HEADERS : {}),
    },
  });
}

/** GET /podcast/<token>/feed.xml */
export async function privateFeedResponse(token: string, deps: PodcastDeps = {}) {
  const viewer = await viewerOfToken(token, deps);
  return viewer ? feedAnswer(viewer, token, deps) : refused(REVOKED_MESSAGE);
}

/** GET /podcast/feed.xml */
export const publicFeedResponse = (deps: PodcastDeps = {}) => feedAnswer(ANONYMOUS, null, deps);

/** `<id>.<ext>` of an episode route: the id, or null when the name is not one. */
const FILE_NAME = /^([A-Za-z0-9_-]{1,50})\.([a-z0-9]{2,4})$/;

async function episodeAnswer(
  request: Request,
  viewer: Viewer,
  file: string,
  token: string | null,
  deps: PodcastDeps,
): Promise<Response> {
  const match = FILE_NAME.exec(file);
  if (!match) return notFoundResponse();
  const [episode] = await readEpisodes((deps.content ?? siteContent)(), match[1]);
  // Only a protected file is served here, under the one name the feed gives it.
  if (!episode || episodeFileName(episode) !== file) return notFoundResponse();
  if (!opensTo(viewer, episode)) return refused(CLOSED_MESSAGE);
  const key = protectedMediaKey(episode.audioFile!.url)!;
  return serveStoredObject(request, key, {
    storage: deps.storage,
    contentType: mediaTypeForKey(key)!.contentType,
    cacheControl: token ? PRIVATE : 'public, max-age=3600',
    headers: token ? PRIVATE_HEADERS : {},
  });
}

/** GET/HEAD /podcast/<token>/episodes/<id>.<ext> */
export async function privateEpisodeResponse(
  request: Request,
  token: string,
  file: string,
  deps: PodcastDeps = {},
): Promise<Response> {
  const viewer = await viewerOfToken(token, deps);
  return viewer ? episodeAnswer(request, viewer, file, token, deps) : refused(REVOKED_MESSAGE);
}

/** GET/HEAD /podcast/episodes/<id>.<ext> */
export const publicEpisodeResponse = (request: Request, file: string, deps: PodcastDeps = {}) =>
  episodeAnswer(request, ANONYMOUS, file, null, deps);

/**
 * An episode file's path (`/podcast/episodes/<file>`, `/podcast/<token>/episodes/<file>`) as
 * the front server answers it, streamed with its Content-Length (src/server/features/front):
 * its handler, or null for any other path. Only names made of the characters a token and a
 * file name have (nothing percent-encoded); anything else goes on to the route handlers.
 */
const EPISODE_PATH =
  /^\/podcast\/(?:([A-Za-z0-9_-]{32})\/)?episodes\/([A-Za-z0-9_-]{1,50}\.[a-z0-9]{2,4})(?:\?|$)/;

export function episodeFileAnswer(
  url: string,
  deps: PodcastDeps = {},
): ((request: Request) => Promise<Response>) | null {
  const match = EPISODE_PATH.exec(url);
  if (!match) return null;
  const [, token, file] = match as unknown as [string, string | undefined, string];
  return (request) =>
    token === undefined
      ? publicEpisodeResponse(request, file, deps)
      : privateEpisodeResponse(request, token, file, deps);
}
