import 'server-only';
import { AppError } from '@/lib/errors';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import {
  BOOKMARK_ENDPOINTS,
  BOOKMARK_LIMIT,
  type BookmarkEndpoint,
  type BookmarkRef,
  bookmarkKey,
} from '@/lib/bookmarks';
import { z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import { bookmarks, user } from '@/server/platform/db/schema';
import { CONTENT_ID } from '@/server/features/content';
import { formatNumber } from '@/lib/format';

/**
 * A signed-in reader's bookmarks: items of the posts, audios, movies and connect endpoints,
 * kept per user (deleted with the user) and listed newest first. Adding and removing are
 * idempotent, so a double click or a resent form changes nothing the second time.
 */

export type Bookmark = BookmarkRef & { createdAt: Date };

export const bookmarkRefSchema = z.object({
  endpoint: z.enum(BOOKMARK_ENDPOINTS, { error: 'ブックマークできない種類のコンテンツです。' }),
  contentId: z
    .string({ error: 'コンテンツの ID を指定してください。' })
    .regex(CONTENT_ID, 'コンテンツの ID が正しくありません。'),
});

export const BOOKMARK_LIMIT_MESSAGE = `ブックマークは ${formatNumber(BOOKMARK_LIMIT)} 件まで保存できます。不要なブックマークを削除してから追加してください。`;

export class BookmarkError extends AppError {
  declare readonly code: 'invalid' | 'limit';

  constructor(code: 'invalid' | 'limit', message: string) {
    super(message, { status: 400, code });
    this.name = 'BookmarkError';
  }
}

function parseRef(ref: BookmarkRef): BookmarkRef {
  const parsed = bookmarkRefSchema.safeParse(ref);
  if (!parsed.success)
    throw new BookmarkError(
      'invalid',
      parsed.error.issues[0]?.message ?? '指定が正しくありません。',
    );
  return parsed.data;
}

/**
 * Adds one bookmark; `added` is false when it was already there (its date is kept).
 * Throws BookmarkError('limit') past the per-user cap.
 */
export async function addBookmark(
  db: Db,
  userId: string,
  ref: BookmarkRef,
  options: { limit?: number } = {},
): Promise<{ added: boolean }> {
  const { endpoint, contentId } = parseRef(ref);
  const limit = options.limit ?? BOOKMARK_LIMIT;
  return db.transaction(async (tx) => {
    // Concurrent adds of one reader wait for each other here, so the cap holds under races;
    // this lock does not block the key-share locks of other inserts referencing the user.
    const [owner] = await tx
      .select({ id: user.id })
      .from(user)
      .where(eq(user.id, userId))
      .for('no key update');
    if (!owner) throw new Error(`addBookmark: no user ${userId}`);
    const inserted = await tx
      .insert(bookmarks)
      .values({ userId, endpoint, contentId })
      .onConflictDoNothing()
      .returning({ contentId: bookmarks.contentId });
    if (inserted.length === 0) return { added: false };
    const [row] = await tx
      .select({ n: count() })
      .from(bookmarks)
      .where(eq(bookmarks.userId, userId));
    // Throwing rolls the insert back.
    if ((row?.n ?? 0) > limit) throw new BookmarkError('limit', BOOKMARK_LIMIT_MESSAGE);
    return { added: true };
  });
}

/** Removes one bookmark; `removed` is false when there was none. */
export async function removeBookmark(
  db: Db,
  userId: string,
  ref: BookmarkRef,
): Promise<{ removed: boolean }> {
  const { endpoint, contentId } = parseRef(ref);
  const deleted = await db
    .delete(bookmarks)
    .where(
      and(
        eq(bookmarks.userId, userId),
        eq(bookmarks.endpoint, endpoint),
        eq(bookmarks.contentId, contentId),
      ),
    )
    .returning({ contentId: bookmarks.contentId });
  return { removed: deleted.length > 0 };
}

/** One page of a reader's bookmarks, newest first, with how many there are in all. */
export async function listBookmarks(
  db: Db,
  userId: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ items: Bookmark[]; total: number }> {
  const [rows, totals] = await Promise.all([
    db
      .select({
        endpoint: bookmarks.endpoint,
        contentId: bookmarks.contentId,
        createdAt: bookmarks.createdAt,
      })
      .from(bookmarks)
      .where(eq(bookmarks.userId, userId))
      .orderBy(desc(bookmarks.createdAt), desc(bookmarks.endpoint), desc(bookmarks.contentId))
      .limit(Math.max(0, limit))
      .offset(Math.max(0, offset)),
    db.select({ n: count() }).from(bookmarks).where(eq(bookmarks.userId, userId)),
  ]);
  return {
    // Rows of an endpoint no longer bookmarkable (none today) are left out rather than shown.
    items: rows.flatMap((row) =>
      (BOOKMARK_ENDPOINTS as readonly string[]).includes(row.endpoint)
        ? [{ ...row, endpoint: row.endpoint as BookmarkEndpoint }]
        : [],
    ),
    total: totals[0]?.n ?? 0,
  };
}

/** Which of `items` the reader has bookmarked, in the order given (each once). */
export async function bookmarkedAmong(
  db: Db,
  userId: string,
  items: BookmarkRef[],
): Promise<BookmarkRef[]> {
  if (items.length === 0) return [];
  const ids = [...new Set(items.map((item) => item.contentId))];
  const rows = await db
    .select({ endpoint: bookmarks.endpoint, contentId: bookmarks.contentId })
    .from(bookmarks)
    .where(and(eq(bookmarks.userId, userId), inArray(bookmarks.contentId, ids)));
  const saved = new Set(rows.map((row) => `${row.endpoint}:${row.contentId}`));
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = bookmarkKey(item);
    if (!saved.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
