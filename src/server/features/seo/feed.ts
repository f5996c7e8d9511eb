import 'server-only';
import { z } from '@/lib/zod';
import { SITE_DESCRIPTION } from '@/lib/site';
import { seriesPath } from '@/lib/authors/works';
import { seriesFeedPath } from '@/lib/feeds';
import { OPEN_POSTS_FILTER } from '@/lib/access/filters';
import { postAccess } from '@/lib/access/post-access';
import { CONTENT_ID, type ContentClient } from '@/server/features/content';
import { type FeedPost, rssXml } from './rss';
import { XML_CACHE_CONTROL } from './xml';

/**
 * Reads the feed's posts: the 50 newest published ones, without their bodies. A body is read
 * afterwards, and only for the posts the access policy opens to an anonymous reader (public
 * previews), so a members' body never even reaches this module.
 */

export const FEED_SIZE = 50;

/** Feed readers are anonymous: nobody signs in to a feed. */
const FEED_VIEWER = { kind: 'anonymous' } as const;

const named = z.object({ name: z.string() });
const feedPostSchema = z.object({
  id: z.string().min(1),
  createdAt: z.string().optional(),
  publishedAt: z.string().optional(),
  revisedAt: z.string().optional(),
  title: z.string(),
  description: z.string().nullish(),
  isPublicPreview: z.boolean(),
  category: named.nullish(),
  writers: z.array(named).nullish(),
});
const FEED_FIELDS =
  'id,createdAt,publishedAt,revisedAt,title,description,isPublicPreview,category.name,writers.name';
const bodySchema = z.object({
  id: z.string(),
  isPublicPreview: z.boolean(),
  body: z.string().nullish(),
});

export async function readFeedPosts(
  client: Pick<ContentClient, 'get'>,
  size = FEED_SIZE,
  /** Only these posts (a series' feed): a content service filter built from checked values. */
  filters?: string,
): Promise<FeedPost[]> {
  const { contents } = await client.get({
    endpoint: 'posts',
    queries: {
      limit: size,
      orders: '-publishedAt',
      fields: FEED_FIELDS,
      depth: 1,
      ...(filters ? { filters } : {}),
    },
    schema: z.object({ contents: z.array(feedPostSchema) }),
  });
  const open = contents.filter((post) => postAccess(FEED_VIEWER, post, []).full).map((p) => p.id);
  const bodies = new Map<string, string>();
  if (open.length > 0) {
    const answer = await client.get({
      endpoint: 'posts',
      queries: {
        ids: open,
        limit: open.length,
        fields: 'id,isPublicPreview,body',
        // Again in the query: a post made members-only in between must not give its body.
        filters: OPEN_POSTS_FILTER,
      },
      schema: z.object({ contents: z.array(bodySchema) }),
    });
    for (const post of answer.contents)
      if (post.isPublicPreview && post.body) bodies.set(post.id, post.body);
  }
  return contents.map((post) => ({
    id: post.id,
    title: post.title,
    description: post.description,
    publishedAt: post.publishedAt,
    createdAt: post.createdAt,
    revisedAt: post.revisedAt,
    isPublicPreview: post.isPublicPreview,
    category: post.category?.name,
    authors: (post.writers ?? []).map((w) => w.name),
    bodyHtml: bodies.get(post.id),
  }));
}

/** A series' own feed: its channel and the filter of its posts. */
export type SeriesFeed = { id: string; title: string; description?: string | null };

/**
 * The /feed.xml answer, or with `series` the answer of /series/{id}/feed.xml: the same posts,
 * read and gated the same way, only that series' ones, in a channel of its own.
 */
export async function feedResponse(
  client: Pick<ContentClient, 'get'>,
  site: { siteUrl: string; siteName: string },
  series?: SeriesFeed,
): Promise<Response> {
  // An id goes into the filter only as the service could hold it (no filter syntax inside).
  if (series && !CONTENT_ID.test(series.id)) throw new Error('not a content id');
  const posts = await readFeedPosts(
    client,
    FEED_SIZE,
    series ? `series[equals]${series.id}` : undefined,
  );
  const channel = series
    ? {
        title: `連載「${series.title}」 | ${site.siteName}`,
        description: series.description || SITE_DESCRIPTION,
        path: seriesPath(series.id),
        feedPath: seriesFeedPath(series.id),
      }
    : { description: SITE_DESCRIPTION };
  const xml = rssXml({ ...site, ...channel, language: 'ja' }, posts);
  return new Response(xml, {
    headers: {
      'content-type': 'application/rss+xml; charset=utf-8',
      'cache-control': XML_CACHE_CONTROL,
    },
  });
}
