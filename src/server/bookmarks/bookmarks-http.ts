import 'server-only';
import { env } from '@/env';
import {
  BOOKMARK_ENDPOINTS,
  BOOKMARK_QUERY_MAX,
  type BookmarkRef,
  bookmarkHref,
  bookmarkKey,
} from '@/lib/bookmarks';
import { z } from '@/lib/zod';
import { isContentRequestError } from '@/server/content/client';
import { siteContent } from '@/server/content/site-content';
import { type Db, getDb } from '@/server/db/client';
import {
  FORBIDDEN_ORIGIN_MESSAGE,
  type FormResult,
  SERVER_ERROR_MESSAGE,
  UNREADABLE_MESSAGE,
  formAnswer,
  jsonAnswer,
  readFormInput,
} from '@/server/http/form-endpoint';
import { isSameOriginRequest } from '@/server/http/request-origin';
import { userFromHeaders } from '@/server/identity/session';
import {
  BookmarkError,
  addBookmark,
  bookmarkRefSchema,
  bookmarkedAmong,
  removeBookmark,
} from './bookmarks';

/**
 * /api/bookmarks. Pages are rendered per audience (DESIGN.md decision 6), so the state of
 * every bookmark button on a page comes from one GET after hydration. POST follows the form
 * protocol (src/server/http/form-endpoint.ts): JSON with real statuses for fetch, a 303 back to
 * the page for a plain form post, which is how the button works without JavaScript.
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

function parseItems(
  value: string | null,
): { ok: true; refs: BookmarkRef[] } | { ok: false; message: string } {
  const parsed = itemsQuery.safeParse(value ?? undefined);
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? '指定が正しくありません。' };
  const refs = new Map<string, BookmarkRef>();
  for (const item of parsed.data) {
    const [, endpoint, contentId] = ITEM.exec(item) ?? [];
    const ref = bookmarkRefSchema.parse({ endpoint, contentId });
    refs.set(bookmarkKey(ref), ref);
  }
  return { ok: true, refs: [...refs.values()] };
}

/** GET /api/bookmarks?items=posts:ID,posts:ID2 → { bookmarked: ['posts:ID'], signedIn }. */
export async function handleBookmarksGet(
  request: Request,
  deps: BookmarksHttpDeps = defaultDeps,
): Promise<Response> {
  const headers = new Headers({ vary: 'cookie' });
  const items = parseItems(new URL(request.url).searchParams.get('items'));
  if (!items.ok) return jsonAnswer(400, { ok: false, message: items.message }, headers);
  try {
    const user = await deps.currentUser(request.headers);
    if (!user) return jsonAnswer(200, { bookmarked: [], signedIn: false }, headers);
    const saved = await bookmarkedAmong(await deps.db(), user.id, items.refs);
    return jsonAnswer(200, { bookmarked: saved.map(bookmarkKey), signedIn: true }, headers);
  } catch (error) {
    console.error('[bookmarks] read failed:', error);
    return jsonAnswer(500, { ok: false, message: SERVER_ERROR_MESSAGE }, headers);
  }
}

const postInput = bookmarkRefSchema.extend({
  action: z.enum(['add', 'remove'], { error: '操作（add または remove）を指定してください。' }),
});

// Three short fields: anything bigger is not from our form.
const MAX_BYTES = 2048;

/** The same-site page a plain post came from (path and query), or null. */
function refererPath(request: Request): string | null {
  const referer = request.headers.get('referer');
  if (!referer) return null;
  try {
    const url = new URL(referer);
    const siteHost = new URL(env().SITE_URL).host;
    if (url.host !== siteHost && url.host !== request.headers.get('host')) return null;
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

/** POST /api/bookmarks with { endpoint, contentId, action: 'add' | 'remove' }. */
export async function handleBookmarksPost(
  request: Request,
  deps: BookmarksHttpDeps = defaultDeps,
): Promise<Response> {
  // CSRF: a state-changing request must come from a page of this site.
  if (!isSameOriginRequest(request))
    return jsonAnswer(403, { ok: false, message: FORBIDDEN_ORIGIN_MESSAGE });
  const input = await readFormInput(request, MAX_BYTES);
  if (!input) return jsonAnswer(400, { ok: false, message: UNREADABLE_MESSAGE });

  const parsed = postInput.safeParse(input);
  const back =
    refererPath(request) ?? (parsed.success ? bookmarkHref(parsed.data) : '/posts/bookmark');
  const answer = (result: FormResult) => formAnswer(request, result, {}, { formPage: back });
  if (!parsed.success) {
    return answer({
      ok: false,
      status: 400,
      message: parsed.error.issues[0]?.message ?? '指定が正しくありません。',
    });
  }
  const { action, ...ref } = parsed.data;

  let user: { id: string } | null;
  try {
    user = await deps.currentUser(request.headers);
  } catch (error) {
    console.error('[bookmarks] session check failed:', error);
    return jsonAnswer(500, { ok: false, message: SERVER_ERROR_MESSAGE });
  }
  if (!user) {
    const wantsJson = (request.headers.get('accept') ?? '').includes('application/json');
    if (wantsJson) return answer({ ok: false, status: 401, message: SIGN_IN_MESSAGE });
    // Without JavaScript: sign in, then back to the page the button was on.
    return new Response(null, {
      status: 303,
      headers: { location: `/login?next=${encodeURIComponent(back)}` },
    });
  }

  try {
    const db = await deps.db();
    if (action === 'add') {
      if (!(await deps.isPublished(ref)))
        return answer({ ok: false, status: 404, message: NOT_FOUND_MESSAGE });
      await addBookmark(db, user.id, ref);
    } else {
      // No existence check: a bookmark of an item that is gone must still be removable.
      await removeBookmark(db, user.id, ref);
    }
  } catch (error) {
    if (error instanceof BookmarkError)
      return answer({ ok: false, status: 400, message: error.message });
    console.error('[bookmarks] update failed:', error);
    return jsonAnswer(500, { ok: false, message: SERVER_ERROR_MESSAGE });
  }
  return answer({
    ok: true,
    redirectTo: back,
    message: action === 'add' ? ADDED_MESSAGE : REMOVED_MESSAGE,
  });
}
