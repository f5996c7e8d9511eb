import 'server-only';
import { SITE_FEED_PATH } from '@/lib/feeds';
import { cdata, escapeXml } from './xml';

/**
 * The RSS 2.0 feed of posts as a pure function of the posts read for it (feed.ts reads).
 * Members' posts give their title and description only; the body of a post goes in
 * `content:encoded` only when the post is a public preview, whatever the caller passes, so
 * the paywall cannot leak through the feed even if a body is handed in by mistake.
 */

export const FEED_PATH = SITE_FEED_PATH;

export type FeedChannel = {
  /** SITE_URL, without a trailing slash. */
  siteUrl: string;
  siteName: string;
  description: string;
  language?: string;
  /** The channel's own title, page and feed (a series' feed); the site's when absent. */
  title?: string;
  /** Path of the page the channel stands for; the site's home when absent. */
  path?: string;
  /** Path of this feed (its atom:link rel="self"); /feed.xml when absent. */
  feedPath?: string;
};

export type FeedPost = {
  id: string;
  title: string;
  description?: string | null;
  /** ISO dates from the content API. */
  publishedAt?: string | null;
  createdAt?: string | null;
  revisedAt?: string | null;
  isPublicPreview: boolean;
  category?: string | null;
  authors?: readonly string[];
  /** The body HTML: used only when isPublicPreview is true. */
  bodyHtml?: string | null;
};

function dateOf(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** RFC 822 date-time as RSS 2.0 wants it (RFC 1123 form, GMT): `Sat, 21 Nov 2026 00:00:00 GMT`. */
export function rfc822(date: Date): string {
  return date.toUTCString();
}

/**
 * Root-relative and fragment URLs in body HTML made absolute: a feed reader shows the body
 * away from the site, where `/uploads/…` would point nowhere. The HTML is already sanitised
 * (only double-quoted src and href carry URLs).
 */
export function absolutizeHtml(html: string, siteUrl: string, pageUrl: string): string {
  return html.replace(/(\s(?:src|href)=")([^"]*)"/gi, (whole, prefix: string, url: string) => {
    if (url.startsWith('/') && !url.startsWith('//')) return `${prefix}${siteUrl}${url}"`;
    if (url.startsWith('#')) return `${prefix}${pageUrl}${url}"`;
    return whole;
  });
}

function element(name: string, text: string | null | undefined): string {
  return text ? `<${name}>${escapeXml(text)}</${name}>` : '';
}

function itemXml(channel: FeedChannel, post: FeedPost): string {
  const link = `${channel.siteUrl}/posts/${encodeURIComponent(post.id)}`;
  const published = dateOf(post.publishedAt) ?? dateOf(post.createdAt);
  const body = post.isPublicPreview === true && post.bodyHtml ? post.bodyHtml : null;
  const parts = [
    element('title', post.title),
    element('link', link),
    `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
    published ? element('pubDate', rfc822(published)) : '',
    element('description', post.description),
    element('category', post.category),
    ...(post.authors ?? []).map((name) => element('dc:creator', name)),
    body
      ? `<content:encoded>${cdata(absolutizeHtml(body, channel.siteUrl, link))}</content:encoded>`
      : '',
  ];
  return `<item>${parts.join('')}</item>`;
}

/** The newest date among the posts (publication or revision): the channel's lastBuildDate. */
function lastBuildDate(posts: readonly FeedPost[]): Date | undefined {
  let latest: Date | undefined;
  for (const post of posts) {
    for (const value of [post.revisedAt, post.publishedAt, post.createdAt]) {
      const date = dateOf(value);
      if (date && (!latest || date > latest)) latest = date;
    }
  }
  return latest;
}

export function rssXml(channel: FeedChannel, posts: readonly FeedPost[]): string {
  const built = lastBuildDate(posts);
  const head = [
    element('title', channel.title ?? channel.siteName),
    element('link', `${channel.siteUrl}${channel.path ?? ''}`),
    element('description', channel.description),
    element('language', channel.language ?? 'ja'),
    `<atom:link href="${escapeXml(`${channel.siteUrl}${channel.feedPath ?? FEED_PATH}`)}" rel="self" type="application/rss+xml"/>`,
    built ? element('lastBuildDate', rfc822(built)) : '',
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" ' +
    'xmlns:content="http://purl.org/rss/1.0/modules/content/" ' +
    'xmlns:dc="http://purl.org/dc/elements/1.1/">\n' +
    '<channel>\n' +
    head.filter(Boolean).join('\n') +
    '\n' +
    posts.map((post) => `${itemXml(channel, post)}\n`).join('') +
    '</channel>\n' +
    '</rss>\n'
  );
}
