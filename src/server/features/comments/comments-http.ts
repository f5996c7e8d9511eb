import 'server-only';
import { z } from '@/lib/zod';
import {
  COMMENT_ENDPOINTS,
  COMMENT_MAX,
  COMMENTS_ANCHOR,
  type CommentEndpoint,
  commentItemPath,
} from '@/lib/comments';
import { mediaAccess, postAccess } from '@/lib/access/post-access';
import { type Db, getDb } from '@/server/platform/db/client';
import { type Limit, consume } from '@/server/platform/rate-limit/limiter';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { jsonAnswer, refererPage } from '@/server/platform/http/form-endpoint';
import { clippedFields } from '@/server/platform/http/flash-values';
import { FORM_KEY } from '@/lib/http/form-flash';
import {
  type AppUser,
  endpoint,
  gatedEndpoint,
  isAdmin,
  isStaff,
  userFromHeaders,
} from '@/server/features/identity';
import { viewerForUser } from '@/server/features/access';
import {
  CONTENT_ID,
  audioSchema,
  findItem,
  getFreePlanPostIds,
  movieSchema,
  postSchema,
  siteContent,
} from '@/server/features/content';
import { ownsPost } from '@/server/features/purchases';
import {
  BANNED,
  type ModerationAction,
  createComment,
  deleteComment,
  editComment,
  freeMembersWrite,
  isBanned,
  moderate,
  ownCommentIds,
  reportComment,
  setFreeMembersWrite,
} from './store';
import { formatNumber } from '@/lib/format';

/**
 * /api/comments and its actions, in the site's form protocol
 * (src/server/features/identity/endpoint.ts): JSON with real statuses for fetch, a 303 back to
 * the item's comments with a one-time message for a plain form post, so every form works
 * without JavaScript. Who may write is decided here from the session, never from the client.
 */

export type CommentsHttpDeps = {
  db: () => Promise<Db>;
  currentUser: (headers: Headers) => Promise<AppUser | null>;
};
const defaultDeps: CommentsHttpDeps = { db: getDb, currentUser: userFromHeaders };

export const SIGN_IN_MESSAGE = 'コメントするにはログインしてください。';
export const ITEM_NOT_FOUND =
  'このコンテンツは見つかりませんでした。公開が終了した可能性があります。';
export const NO_ACCESS = 'このコンテンツを読める会員だけがコメントできます。';
export const PAID_ONLY = 'コメントを書けるのは有料会員です。';

/** Per member, beside the per-address limit: a burst of comments is refused for a while. */
const WRITE_LIMIT: Limit = { name: 'comment-write-user', max: 10, windowMs: 10 * 60_000 };
const ADDRESS_LIMIT: Limit = { name: 'comment-write', max: 30, windowMs: 10 * 60_000 };

const firstIssue = (error: z.ZodError) =>
  error.issues[0]?.message ?? '入力内容を確認してください。';
const itemEndpoint = z
  .enum(COMMENT_ENDPOINTS, { error: 'コメントできない種類のコンテンツです。' })
  .default('posts');
const contentId = z
  .string({ error: 'コンテンツの ID を指定してください。' })
  .regex(CONTENT_ID, 'コンテンツの ID が正しくありません。');
const commentId = z
  .string({ error: 'コメントを指定してください。' })
  .uuid({ error: 'コメントの指定が正しくありません。' });
const body = z
  .string({ error: 'コメントを入力してください。' })
  .transform((value) => value.replace(/\r\n?/g, '\n').trim())
  .pipe(
    z
      .string()
      .min(1, 'コメントを入力してください。')
      .max(COMMENT_MAX, `コメントは ${formatNumber(COMMENT_MAX)} 文字以内で入力してください。`),
  );
// A form's empty field is no parent.
const optionalId = z.preprocess(
  (value) => (value === '' ? undefined : value),
  commentId.optional(),
);

const createInput = z.object({
  endpoint: itemEndpoint,
  postId: contentId,
  body,
  parentId: optionalId,
});

/**
 * What a refused plain post carries back in its one-time cookie: browsers drop a cookie past
 * 4 KB, with the message in it, so a long comment comes back clipped (2,000 bytes).
 */
const flashValues = clippedFields({ [FORM_KEY]: 40, body: 2000 });

const back = (request: Request, item: { endpoint: CommentEndpoint; contentId: string }) =>
  `${(refererPage(request) ?? commentItemPath(item.endpoint, item.contentId)).split('#')[0]}#${COMMENTS_ANCHOR}`;

/** Why this member may not comment on the item (null: they may). */
async function writeRefusal(
  db: Db,
  user: AppUser,
  item: { endpoint: CommentEndpoint; contentId: string },
) {
  if (await isBanned(db, user.id)) return { status: 403, message: BANNED };
  const viewer = await viewerForUser(user);
  let full: boolean;
  if (item.endpoint === 'posts') {
    const post = await findItem('posts', postSchema, item.contentId);
    if (!post) return { status: 404, message: ITEM_NOT_FOUND };
    const bought =
      viewer.kind === 'member' && !viewer.paid && (await ownsPost(db, user.id, post))
        ? [post.id]
        : [];
    full = postAccess(viewer, post, await getFreePlanPostIds(siteContent()), null, bought).full;
  } else {
    const schema = item.endpoint === 'audios' ? audioSchema : movieSchema;
    const media = await findItem(item.endpoint, schema, item.contentId);
    if (!media) return { status: 404, message: ITEM_NOT_FOUND };
    full = mediaAccess(viewer, media).full;
  }
  if (!full) return { status: 403, message: NO_ACCESS };
  if (viewer.kind === 'member' && !viewer.paid && !(await freeMembersWrite(db)))
    return { status: 403, message: PAID_ONLY };
  return null;
}

/** POST /api/comments: { endpoint?, postId, body, parentId? }. */
export function handleCommentCreate(request: Request, deps: CommentsHttpDeps = defaultDeps) {
  return endpoint(
    {
      name: 'comments',
      input: createInput,
      maxBytes: 16 * 1024,
      auth: 'user',
      rateLimit: ADDRESS_LIMIT,
      formPage: (input) => (input ? commentItemPath(input.endpoint, input.postId) : '/posts'),
      invalidMessage: firstIssue,
      flashValues,
      messages: { signIn: SIGN_IN_MESSAGE },
      viewer: deps.currentUser,
      db: deps.db,
    },
    async ({ input, user, request }) => {
      const db = await deps.db();
      const item = { endpoint: input.endpoint, contentId: input.postId };
      const refused = await writeRefusal(db, user, item);
      if (refused) return { ok: false, ...refused };
      await consume(db, [{ limit: WRITE_LIMIT, subject: user.id }]);
      await createComment(db, {
        ...item,
        userId: user.id,
        body: input.body,
        parentId: input.parentId,
      });
      return doneAnswer(
        input.parentId ? '返信を投稿しました。' : 'コメントを投稿しました。',
        back(request, item),
      );
    },
  )(request);
}

const editInput = z.object({ commentId, body });
const idInput = z.object({ commentId });
const reportInput = z.object({
  commentId,
  reason: z
    .string()
    .max(500, '報告の理由は 500 文字以内で入力してください。')
    .optional()
    .transform((value) => value?.trim() ?? ''),
});

/** POST /api/comments/edit (own, within 10 minutes), /delete (own), /report (one per member). */
export function handleCommentAction(
  action: 'edit' | 'delete' | 'report',
  request: Request,
  deps: CommentsHttpDeps = defaultDeps,
) {
  return endpoint(
    {
      name: `comments-${action}`,
      input: action === 'edit' ? editInput : action === 'report' ? reportInput : idInput,
      maxBytes: 16 * 1024,
      auth: 'user',
      rateLimit: ADDRESS_LIMIT,
      formPage: '/posts',
      invalidMessage: firstIssue,
      flashValues,
      messages: {
        signIn:
          action === 'report'
            ? 'コメントを報告するにはログインしてください。'
            : 'ログインの有効期限が切れました。もう一度ログインしてください。',
      },
      viewer: deps.currentUser,
      db: deps.db,
    },
    async ({ input, user, request }) => {
      const db = await deps.db();
      const id = input.commentId;
      if (action === 'report') {
        const { reason } = input as z.output<typeof reportInput>;
        const item = await reportComment(db, { id, userId: user.id, reason });
        return doneAnswer('コメントを報告しました。編集部が確認します。', back(request, item));
      }
      if (await isBanned(db, user.id)) return { ok: false, status: 403, message: BANNED };
      const item =
        action === 'edit'
          ? await editComment(db, {
              id,
              userId: user.id,
              body: (input as z.output<typeof editInput>).body,
            })
          : await deleteComment(db, { id, userId: user.id });
      return doneAnswer(
        action === 'edit' ? 'コメントを編集しました。' : 'コメントを削除しました。',
        back(request, item),
      );
    },
  )(request);
}

/**
 * GET /api/comments?endpoint=posts&contentId=ID → { signedIn, own: [ids] }: the page is the
 * same for its whole audience, so a reader's own comments (their edit and delete buttons) are
 * asked for after hydration.
 */
export function handleCommentsGet(request: Request, deps: CommentsHttpDeps = defaultDeps) {
  return endpoint(
    {
      name: 'comments',
      method: 'GET',
      input: z.object({ endpoint: itemEndpoint, contentId }),
      auth: 'optional',
      answers: 'json',
      invalidMessage: firstIssue,
      viewer: deps.currentUser,
      db: deps.db,
    },
    async ({ input, user }) => {
      const headers = new Headers({ vary: 'cookie', 'cache-control': 'private, no-store' });
      if (!user) return jsonAnswer(200, { signedIn: false, own: [] }, headers);
      const own = await ownCommentIds(
        await deps.db(),
        { endpoint: input.endpoint, contentId: input.contentId },
        user.id,
      );
      return jsonAnswer(200, { signedIn: true, own }, headers);
    },
  )(request);
}

export const COMMENTS_ADMIN_PAGE = '/admin/comments';
const moderateInput = z.object({
  action: z.enum(['hide', 'unhide', 'pin', 'unpin', 'ban', 'unban', 'resolve'], {
    error: '操作を指定してください。',
  }),
  commentId,
});
const MODERATION_DONE: Record<ModerationAction, string> = {
  hide: 'コメントを非表示にしました。',
  unhide: 'コメントを再表示しました。',
  pin: 'コメントをピン留めしました。',
  unpin: 'ピン留めを外しました。',
  ban: '投稿者のコメントを停止しました（過去のコメントも表示されなくなります）。',
  unban: '投稿者のコメント停止を解除しました。',
  resolve: '報告を対応済みにしました。',
};

/** POST /api/comments/moderate (editors and admins; anyone else: the bare 404). */
export function moderationHandler(deps: CommentsHttpDeps = defaultDeps) {
  return gatedEndpoint(
    {
      name: 'comments-moderate',
      formPage: COMMENTS_ADMIN_PAGE,
      maxBytes: 4 * 1024,
      viewer: deps.currentUser,
      db: deps.db,
    },
    isStaff,
    async ({ input, actor, ip }) => {
      const parsed = moderateInput.safeParse(input);
      if (!parsed.success) return { ok: false, status: 400, message: firstIssue(parsed.error) };
      await moderate(await deps.db(), { ...parsed.data, actor, ip });
      return doneAnswer(MODERATION_DONE[parsed.data.action], COMMENTS_ADMIN_PAGE);
    },
  );
}

/** POST /api/comments/settings (admins): whether free members may write. */
export function settingsHandler(deps: CommentsHttpDeps = defaultDeps) {
  return gatedEndpoint(
    {
      name: 'comments-settings',
      formPage: COMMENTS_ADMIN_PAGE,
      maxBytes: 4 * 1024,
      viewer: deps.currentUser,
      db: deps.db,
    },
    isAdmin,
    async ({ input, actor, ip }) => {
      const open = input.freeMembersWrite === 'on' || input.freeMembersWrite === 'true';
      await setFreeMembersWrite(await deps.db(), open, { actor, ip });
      return doneAnswer(
        open
          ? '無料会員もコメントを書けるようにしました。'
          : 'コメントを書けるのを有料会員だけにしました。',
        COMMENTS_ADMIN_PAGE,
      );
    },
  );
}
