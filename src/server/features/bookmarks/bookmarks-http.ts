import 'server-only';
import {
  BOOKMARK_ENDPOINTS,
  BOOKMARK_QUERY_MAX,
  type BookmarkRef,
  bookmarkHref,
  bookmarkKey,
} from '@/lib/bookmarks';
import { z } from '@/lib/zod';
import { isContentRequestError, siteContent } from '@/server/features/content';
import { type Db, getDb } from '@/server/platform/db/client';
import { endpoint, userFromHeaders } from '@/server/features/identity';
import { jsonAnswer, refererPage } from '@/server/platform/http/form-endpoint';
import { addBookmark, bookmarkRefSchema, bookmarkedAmong, removeBookmark } from './bookmarks';

/**
 * /api/bookmarks. Pages are rendered per audience (docs/decisions/007-pages-per-audience.md), so
 * the state of every bookmark button on a page comes from one GET after hydration. POST follows the
 * form protocol (src/server/features/identity/endpoint.ts): JSON with real statuses for fetch, a 303 back to the
 * page for a plain form post, which is how the button works without JavaScript.
 */

export type BookmarksHttpDeps = {
  db: () => Promise<Db>;
  currentUser: (headers: Headers) => Promise<{ id: string } | null>;
  /** Whether the item exists and is published (drafts and closed items are not). */
  isPublished: (ref: BookmarkRef) => Promise<boolean>;
};

export async function isPublishedItem(ref: BookmarkRef): Promise<boolean> {
  try {
    await siteContent().getListDetail({
      endpoint: ref.endpoint,
      contentId: ref.contentId,
      queries: { fields: 'id' },
    });
    return true;
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404) return false;
    throw error;
  }
}

const defaultDeps: BookmarksHttpDeps = {
  db: getDb,
  currentUser: userFromHeaders,
  isPublished: isPublishedItem,
};

export const SIGN_IN_MESSAGE = 'ブックマークするにはログインしてください。';
export const NOT_FOUND_MESSAGE =
  'このコンテンツは見つかりませんでした。公開が終了した可能性があります。';
export const ADDED_MESSAGE = 'ブックマークに追加しました。';
export const REMOVED_MESSAGE = 'ブックマークを解除しました。';

const ITEM = new RegExp(`^(${BOOKMARK_ENDPOINTS.join('|')}):([A-Za-z0-9_-]{1,50})$`);

const firstIssue = (error: z.ZodError) => error.issues[0]?.message ?? '指定が正しくありません。';

const itemsQuery = z
  .string({ error: 'items を指定してください（例: items=posts:ID,posts:ID2）。' })
  // 100 items of at most 58 characters, with commas.
  .max(BOOKMARK_QUERY_MAX * 60, `一度に確認できるのは ${BOOKMARK_QUERY_MAX} 件までです。`)
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().regex(ITEM, 'items は「種類:ID」をカンマで区切って指定してください。'))
      .min(1, 'items を指定してください（例: items=posts:ID,posts:ID2）。')
      .max(BOOKMARK_QUERY_MAX, `一度に確認できるのは ${BOOKMARK_QUERY_MAX} 件までです。`),
  );

/** The distinct items of a checked items list. */
function refsOf(items: string[]): BookmarkRef[] {
  const refs = new Map<string, BookmarkRef>();
  for (const item of items) {
    const [, endpoint, contentId] = ITEM.exec(item) ?? [];
    const ref = bookmarkRefSchema.parse({ endpoint, contentId });
    refs.set(bookmarkKey(ref), ref);
  }
  return [...refs.values()];
}

/** GET /api/bookmarks?items=posts:ID,posts:ID2 → { bookmarked: ['posts:ID'], signedIn }. */
export async function handleBookmarksGet(
  request: Request,
  deps: BookmarksHttpDeps = defaultDeps,
): Promise<Response> {
  return endpoint(
    {
      name: 'bookmarks',
      method: 'GET',
      input: z.object({ items: itemsQuery }),
      auth: 'optional',
      answers: 'json',
      invalidMessage: firstIssue,
      viewer: deps.currentUser,
    },
    async ({ input, user }) => {
      const headers = new Headers({ vary: 'cookie' });
      if (!user) return jsonAnswer(200, { bookmarked: [], signedIn: false }, headers);
      const saved = await bookmarkedAmong(await deps.db(), user.id, refsOf(input.items));
      return jsonAnswer(200, { bookmarked: saved.map(bookmarkKey), signedIn: true }, headers);
    },
  )(request);
}

const postInput = bookmarkRefSchema.extend({
  action: z.enum(['add', 'remove'], { error: '操作（add または remove）を指定してください。' }),
});

// Three short fields: anything bigger is not from our form.
const MAX_BYTES = 2048;

/** POST /api/bookmarks with { endpoint, contentId, action: 'add' | 'remove' }. */
export async function handleBookmarksPost(
  request: Request,
  deps: BookmarksHttpDeps = defaultDeps,
): Promise<Response> {
  return endpoint(
    {
      name: 'bookmarks',
      input: postInput,
      maxBytes: MAX_BYTES,
      auth: 'user',
      // Back to the item itself when the post came from no page of ours.
      formPage: (input) => (input ? bookmarkHref(input) : '/posts/bookmark'),
      flashValues: () => ({}),
      invalidMessage: firstIssue,
      messages: { signIn: SIGN_IN_MESSAGE },
      viewer: deps.currentUser,
    },
    async ({ input: { action, ...ref }, user, request }) => {
      const db = await deps.db();
      // A BookmarkError (400) is answered by the endpoint's error mapping.
      if (action === 'add') {
        if (!(await deps.isPublished(ref)))
          return { ok: false, status: 404, message: NOT_FOUND_MESSAGE };
        await addBookmark(db, user.id, ref);
      } else {
        // No existence check: a bookmark of an item that is gone must still be removable.
        await removeBookmark(db, user.id, ref);
      }
      return {
        ok: true,
        redirectTo: refererPage(request) ?? bookmarkHref(ref),
        message: action === 'add' ? ADDED_MESSAGE : REMOVED_MESSAGE,
      };
    },
  )(request);
}
