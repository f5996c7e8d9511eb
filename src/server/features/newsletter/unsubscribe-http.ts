import 'server-only';
import { type Db, getDb } from '@/server/platform/db/client';
import { readFormInput } from '@/server/platform/http/form-endpoint';
import { clientIp, isSameOriginRequest } from '@/server/platform/http/request-origin';
import { maskAddress } from '@/server/platform/mail/mailer';
import { eq } from 'drizzle-orm';
import { userPrivateProfiles } from '@/server/platform/db/schema';
import {
  setNewsletterConsent,
  UNSUBSCRIBE_PATH,
  verifyUnsubscribeToken,
} from '@/server/features/profiles';

/**
 * `POST /newsletter/unsubscribe?token=…` (the front server hands it to
 * /api/newsletter/unsubscribe, its route): the unsubscribe link's POST.
 *
 * - **RFC 8058 one-click**: a mailbox provider posts exactly `List-Unsubscribe=One-Click`
 *   (urlencoded or multipart) with no cookies and follows no redirect. That exact body is
 *   exempt from the same-origin check (the provider's server is another origin, and the token
 *   alone says whom to unsubscribe) and is answered 200 in plain text.
 * - **The page's button** (「配信を停止する」): a same-origin form post, answered 303 to the page,
 *   which says 「配信を停止しました」.
 * - A forged, altered, expired or malformed token: 400 with a Japanese message; nothing changes.
 *
 * No session is read: the token is the only authority, so the answer is the same signed in or not.
 */

export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';
export const INVALID_TOKEN_MESSAGE =
  '配信停止のリンクが正しくありません。メールに記載のリンクをそのまま開いてください。解決しない場合は、ログインしてアカウントページから配信を停止できます。';

const MAX_BODY_BYTES = 1024;

const text = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

/** The page after the button, saying what happened. */
export const unsubscribedPage = (token: string) =>
  `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}&done=1`;

export async function handleUnsubscribePost(
  request: Request,
  deps: { db?: () => Promise<Db>; now?: () => Date } = {},
): Promise<Response> {
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  const read = await readFormInput(request, MAX_BODY_BYTES);
  const fields = read.ok ? Object.entries(read.input) : [];
  const oneClick =
    fields.length === 1 && fields[0]![0] === ONE_CLICK_FIELD && fields[0]![1] === ONE_CLICK_VALUE;
  // Another site's page may not post the form; only the exact one-click body may come from
  // anywhere (the mailbox provider's server).
  if (!oneClick && !isSameOriginRequest(request)) {
    return text(403, 'このページからは送信できません。');
  }
  if (!oneClick && (!read.ok || fields.some(([name]) => name !== 'confirm'))) {
    return text(400, '送信内容を読み取れませんでした。');
  }
  const now = deps.now?.() ?? new Date();
  const userId = verifyUnsubscribeToken(token, now.getTime());
  if (!userId) return text(400, INVALID_TOKEN_MESSAGE);
  const db = await (deps.db ?? getDb)();
  await setNewsletterConsent(db, {
    userId,
    subscribed: false,
    method: oneClick ? 'one-click' : 'unsubscribe-page',
    page: oneClick ? null : UNSUBSCRIBE_PATH,
    ip: clientIp(request.headers),
    userAgent: request.headers.get('user-agent'),
    actor: oneClick ? 'one-click' : `user:${userId}`,
    now,
  });
  if (oneClick) return text(200, '配信を停止しました。');
  return new Response(null, {
    status: 303,
    headers: { location: unsubscribedPage(token), 'cache-control': 'no-store' },
  });
}

/** What the unsubscribe page shows for a token: the masked address, or null when invalid. */
export async function unsubscribeTarget(
  db: Db,
  token: string | undefined,
  now: number = Date.now(),
): Promise<{ userId: string; maskedEmail: string | null; subscribed: boolean } | null> {
  const userId = verifyUnsubscribeToken(token, now);
  if (!userId) return null;
  const [row] = await db
    .select({ email: userPrivateProfiles.email, newsletter: userPrivateProfiles.newsletter })
    .from(userPrivateProfiles)
    .where(eq(userPrivateProfiles.userId, userId));
  return {
    userId,
    maskedEmail: row ? maskAddress(row.email) : null,
    subscribed: row?.newsletter ?? false,
  };
}
