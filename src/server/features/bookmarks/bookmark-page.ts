import 'server-only';
import {
  BOOKMARK_PAGE_SIZE,
  type BookmarkEndpoint,
  type BookmarkRef,
  bookmarkHref,
  bookmarkKey,
} from '@/lib/bookmarks';
import { z } from '@/lib/zod';
import { type ContentClient, imageSchema, siteContent } from '@/server/features/content';
import { type Db, getDb } from '@/server/platform/db/client';
import { listBookmarks } from './bookmarks';

/**
 * One page of /posts/bookmark as plain data: the reader's bookmarks, newest first, each with
 * the title and cover the content service has for it now, or `item: null` when the item is
 * no longer published. One read per endpoint on the page, by ids, with only the fields shown.
 */

export type BookmarkRow = BookmarkRef & {
  key: string;
  /** When it was bookmarked (ISO). */
  savedAt: string;
  item: { title: string; href: string; image: { url: string; alt?: string } | null } | null;
};

export type BookmarkPage = {
  rows: BookmarkRow[];
  total: number;
  page: number;
  totalPages: number;
};

const cardSchema = z.object({ title: z.string(), coverImage: imageSchema.optional() });
const CARD_FIELDS = 'id,createdAt,updatedAt,publishedAt,revisedAt,title,coverImage';

export async function loadBookmarkPage(
  deps: { db: Db; content: ContentClient },
  userId: string,
  page: number,
  size = BOOKMARK_PAGE_SIZE,
): Promise<BookmarkPage> {
  const { items, total } = await listBookmarks(deps.db, userId, {
    limit: size,
    offset: (page - 1) * size,
  });

  const idsByEndpoint = new Map<BookmarkEndpoint, string[]>();
  for (const item of items) {
    const ids = idsByEndpoint.get(item.endpoint) ?? [];
    ids.push(item.contentId);
    idsByEndpoint.set(item.endpoint, ids);
  }
  const found = new Map<string, z.infer<typeof cardSchema>>();
  await Promise.all(
    [...idsByEndpoint].map(async ([endpoint, ids]) => {
      const answer = await deps.content.getList({
        endpoint,
        queries: { ids, fields: CARD_FIELDS, limit: ids.length },
        schema: cardSchema,
      });
      for (const content of answer.contents)
        found.set(bookmarkKey({ endpoint, contentId: content.id }), content);
    }),
  );

  return {
    rows: items.map((bookmark) => {
      const key = bookmarkKey(bookmark);
      const content = found.get(key);
      return {
        endpoint: bookmark.endpoint,
        contentId: bookmark.contentId,
        key,
        savedAt: bookmark.createdAt.toISOString(),
        item: content
          ? {
              title: content.title,
              href: bookmarkHref(bookmark),
              image: content.coverImage
                ? { url: content.coverImage.url, alt: content.coverImage.alt }
                : null,
            }
          : null,
      };
    }),
    total,
    page,
    totalPages: Math.max(1, Math.ceil(total / size)),
  };
}

/** The page of a signed-in reader's bookmarks, on the site's database and content service. */
export async function bookmarkPageOf(userId: string, page: number): Promise<BookmarkPage> {
  return loadBookmarkPage({ db: await getDb(), content: siteContent() }, userId, page);
}
