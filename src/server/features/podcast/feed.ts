import 'server-only';
import { z } from '@/lib/zod';
import { audioFor, type Viewer } from '@/lib/access/post-access';
import { CONTENT_ID, type ContentClient } from '@/server/features/content';
import { escapeXml, rfc822 } from '@/server/features/seo';
import { mediaTypeForKey } from '@/server/platform/storage/media-types';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { protectedMediaKey } from '@/server/platform/security/signing';
import { isValidStorageKey } from '@/lib/media/storage-key';

/**
 * The podcast feeds (docs/decisions/062-private-podcast-feeds.md): RSS 2.0 with Apple's
 * `itunes` namespace, the audio episodes the access policy opens to the feed's viewer and
 * nothing else. A closed episode is left out whole (no title, no enclosure): the feed is not a
 * teaser. A protected file's enclosure is this site's episode route (the token's, or the public
 * one), so a podcast app plays it without cookies; any other file is linked where it is.
 */

/** Episodes per feed, newest first. */
export const FEED_EPISODES = 100;
export const PUBLIC_FEED_PATH = '/podcast/feed.xml';
export const ARTWORK_PATH = '/podcast-artwork.png';

/** Where a feed's episodes are served: `/podcast` (public) or `/podcast/<token>`. */
export const feedBase = (token: string | null) => (token ? `/podcast/${token}` : '/podcast');

const episodeSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  publishedAt: z.string().optional(),
  revisedAt: z.string().optional(),
  title: z.string(),
  description: z.string().optional(),
  audioFile: z.object({ url: z.string(), fileSize: z.number().optional() }).optional(),
  duration: z.number().optional(),
  isPublicPreview: z.boolean(),
  writers: z.array(z.object({ name: z.string() })).default([]),
});
export type Episode = z.infer<typeof episodeSchema>;
const EPISODE_FIELDS =
  'id,createdAt,publishedAt,revisedAt,title,description,audioFile,duration,isPublicPreview,writers.name';

/** The newest published episodes with a file (or the one of `id`), open or not. */
export async function readEpisodes(
  content: Pick<ContentClient, 'get'>,
  id?: string,
): Promise<Episode[]> {
  if (id !== undefined && !CONTENT_ID.test(id)) return [];
  const { contents } = await content.get({
    endpoint: 'audios',
    queries: {
      limit: id ? 1 : FEED_EPISODES,
      orders: '-publishedAt',
      fields: EPISODE_FIELDS,
      depth: 1,
      ...(id ? { ids: id } : {}),
    },
    schema: z.object({ contents: z.array(episodeSchema) }),
  });
  return contents.filter((episode) => episode.audioFile);
}

/** Whether the access policy opens the episode's file to the viewer (the pages' decision). */
export const opensTo = (viewer: Viewer, episode: Episode) => audioFor(viewer, episode).full;

/** The storage key of a file this site stores (protected, or a public upload), else null. */
function storedKey(url: string): string | null {
  const key = protectedMediaKey(url);
  if (key) return key;
  const path = url.split(/[?#]/, 1)[0]!;
  const upload = path.startsWith('/uploads/') ? path.slice('/uploads/'.length) : null;
  return upload && isValidStorageKey(upload) ? upload : null;
}

/** A protected episode file's name in the feed's episode route: `<id>.<extension>`. */
export function episodeFileName(episode: Pick<Episode, 'id' | 'audioFile'>): string | null {
  const key = episode.audioFile ? protectedMediaKey(episode.audioFile.url) : null;
  const ext = key?.slice(key.lastIndexOf('.') + 1);
  return key && ext && mediaTypeForKey(key) ? `${episode.id}.${ext}` : null;
}

type Enclosure = { url: string; length: number; type: string };

async function enclosureOf(
  episode: Episode,
  base: string,
  siteUrl: string,
  storage: MediaStorage,
): Promise<Enclosure> {
  const file = episode.audioFile!;
  const key = storedKey(file.url);
  const named = episodeFileName(episode);
  const url = named
    ? `${siteUrl}${base}/episodes/${named}`
    : file.url.startsWith('/')
      ? `${siteUrl}${file.url}`
      : file.url;
  // Apple asks for the length in bytes: the content service's, else the stored file's.
  const length = file.fileSize ?? (key ? ((await storage.head(key))?.size ?? 0) : 0);
  // An address the service holds that is no URL still gets a feed, with MP3's type.
  const path = URL.canParse(url, siteUrl) ? new URL(url, siteUrl).pathname : '';
  const type = mediaTypeForKey(key ?? path)?.contentType ?? 'audio/mpeg';
  return { url, length, type };
}

export type FeedSite = {
  /** SITE_URL without a trailing slash. */
  siteUrl: string;
  siteName: string;
  /** itunes:owner's address (Apple writes to it). */
  ownerEmail: string;
};

/** An episode's publication date as RSS writes it, or null when the service's is no date. */
function dateText(episode: Pick<Episode, 'publishedAt' | 'createdAt'>): string | null {
  const date = new Date(episode.publishedAt ?? episode.createdAt);
  return Number.isNaN(date.getTime()) ? null : rfc822(date);
}

const el = (name: string, text: string | null | undefined) =>
  text ? `<${name}>${escapeXml(text)}</${name}>` : '';

async function itemXml(
  episode: Episode,
  base: string,
  site: FeedSite,
  storage: MediaStorage,
): Promise<string> {
  const link = `${site.siteUrl}/audios/${encodeURIComponent(episode.id)}`;
  const enclosure = await enclosureOf(episode, base, site.siteUrl, storage);
  const authors = episode.writers.map((w) => w.name).join('、');
  return [
    '<item>',
    el('title', episode.title),
    el('link', link),
    // The page's address: the same in every feed, so an app moved to a new address keeps its plays.
    `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
    el('pubDate', dateText(episode)),
    el('description', episode.description),
    `<enclosure url="${escapeXml(enclosure.url)}" length="${enclosure.length}" type="${escapeXml(enclosure.type)}"/>`,
    episode.duration ? el('itunes:duration', String(Math.round(episode.duration))) : '',
    el('itunes:author', authors),
    '<itunes:explicit>false</itunes:explicit>',
    '</item>',
  ]
    .filter(Boolean)
    .join('');
}

/** The whole feed: a reader's (`token`) or the public one (null). */
export async function podcastXml(
  episodes: readonly Episode[],
  token: string | null,
  site: FeedSite,
  storage: MediaStorage,
): Promise<string> {
  const base = feedBase(token);
  const title = token ? `${site.siteName} 会員向け音声` : `${site.siteName} 音声`;
  const description = token
    ? `${site.siteName} の音声エピソード。ご契約中のプランで聴ける回がすべて届きます。このフィードの URL はあなた専用です。共有しないでください。`
    : `${site.siteName} の音声エピソードのうち、どなたでも聴ける回です。`;
  const artwork = `${site.siteUrl}${ARTWORK_PATH}`;
  const home = `${site.siteUrl}/audios`;
  const newest = episodes[0];
  const items = await Promise.all(episodes.map((e) => itemXml(e, base, site, storage)));
  const head = [
    el('title', title),
    el('link', home),
    el('description', description),
    el('language', 'ja'),
    `<atom:link href="${escapeXml(`${site.siteUrl}${base}/feed.xml`)}" rel="self" type="application/rss+xml"/>`,
    el('itunes:author', site.siteName),
    `<itunes:owner>${el('itunes:name', site.siteName)}${el('itunes:email', site.ownerEmail)}</itunes:owner>`,
    `<itunes:image href="${escapeXml(artwork)}"/>`,
    `<image>${el('url', artwork)}${el('title', title)}${el('link', home)}</image>`,
    // Apple's categories: Arts › Design.
    '<itunes:category text="Arts"><itunes:category text="Design"/></itunes:category>',
    '<itunes:explicit>false</itunes:explicit>',
    '<itunes:type>episodic</itunes:type>',
    // A reader's own feed must never be listed in Apple's directory.
    token ? '<itunes:block>Yes</itunes:block>' : '',
    newest ? el('lastBuildDate', dateText(newest)) : '',
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" ' +
    'xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n' +
    head.filter(Boolean).join('\n') +
    '\n' +
    items.map((item) => `${item}\n`).join('') +
    '</channel>\n</rss>\n'
  );
}
