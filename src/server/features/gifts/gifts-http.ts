import 'server-only';
import { env } from '@/env';
import { giftUrl } from '@/lib/gifts/gift-link';
import { z } from '@/lib/zod';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { CONTENT_ID, findItem, postSchema } from '@/server/features/content';
import { getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { endpoint, type ViewerOption } from '@/server/features/identity';
import { type GiftedPost, createGift, giftAllowance } from './gifts';

/**
 * POST /api/gifts (field `postId`): a paid reader makes a gift link of a members' post
 * (docs/decisions/037-gift-articles.md). Who the giver is and what they pay for are read on the
 * server, never taken from the form. The new link is shown once: it travels to the post's gift
 * page (/posts/{id}/gift) in the one-time message cookie (HttpOnly, a minute at most), never in
 * a URL, a log line or the audit record, which names the gift and the post only. A plain post
 * (no JavaScript) gets a 303 there; the page's form script gets JSON and loads it.
 */

/** The one-time message's field that carries the new link to the gift page. */
export const NEW_GIFT_URL_VALUE = 'giftUrl';

export const giftPagePath = (contentId: string) => `/posts/${contentId}/gift`;

const input = z.object({
  postId: z.string({ error: '記事が指定されていません。' }).regex(CONTENT_ID, '記事が不正です。'),
});

export type GiftsHttpOptions = ViewerOption & {
  /** Tests: the post looked up, the clock. */
  findPost?: (id: string) => Promise<(GiftedPost & { isPublicPreview: boolean }) | null>;
  now?: () => Date;
};

/** What the gift page shows a giver: the month's allowance left, and the setting. */
export async function giftAllowanceFor(
  userId: string,
  now = new Date(),
): Promise<{ left: number; limit: number }> {
  const limit = env().GIFT_MONTHLY_LIMIT;
  const { left } = await giftAllowance(await getDb(), userId, { now, limit });
  return { left, limit };
}

export function giftsHandlers(options: GiftsHttpOptions = {}) {
  const findPost = options.findPost ?? ((id: string) => findItem('posts', postSchema, id));
  return {
    create: endpoint(
      {
        name: 'gift-create',
        auth: 'user',
        input,
        maxBytes: 1024,
        // Made by hand, a few a month: a burst is a script.
        rateLimit: { name: 'gift-create', max: 30, windowMs: 10 * 60_000 },
        formPage: (parsed) => (parsed ? giftPagePath(parsed.postId) : '/posts'),
        ...(options.viewer ? { viewer: options.viewer } : {}),
      },
      async ({ input: { postId }, user, ip }) => {
        const post = await findPost(postId);
        if (!post) return { ok: false, status: 404, message: 'この記事は見つかりません。' };
        const db = await getDb();
        const made = await createGift(db, {
          giver: user,
          post,
          now: options.now?.() ?? new Date(),
          limit: env().GIFT_MONTHLY_LIMIT,
        });
        if (!made.ok) return { ok: false, status: 403, message: made.message };
        await recordAudit(db, {
          actor: `user:${user.id}`,
          action: 'gift-created',
          target: `posts:${post.id}`,
          ip,
          detail: { giftId: made.id, expiresAt: made.expiresAt.toISOString() },
        });
        return doneAnswer(
          `ギフトリンクを作成しました。今月あと${made.left}本贈れます。`,
          giftPagePath(post.id),
          { [NEW_GIFT_URL_VALUE]: giftUrl(env().SITE_URL, post.id, made.token) },
        );
      },
    ),
  };
}

export const giftsRoutes = giftsHandlers();
