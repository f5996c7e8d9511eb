import 'server-only';
import { cookies } from 'next/headers';
import { env } from '@/env';
import { z } from '@/lib/zod';
import { findDraftKey } from '@/server/services/cms/store';
import {
  CONTENT_ID,
  isContentRequestError,
  siteContent,
  usesBuiltInContent,
} from '@/server/features/content';
import { getDb } from '@/server/platform/db/client';
import { PREVIEW_COOKIE, setCookieValue } from '@/server/platform/http/cookies';
import { sameSecret, signToken, verifyToken } from '@/server/platform/security/signing';
import { isStaff, userFromHeaders } from '@/server/features/identity';

/**
 * Preview mode (SPEC §2): a valid draftKey for an item sets a preview cookie for that item
 * alone. The cookie is signed (APP_SECRET), names the endpoint, the content id and the draft
 * key, and expires; every request checks the draft key against the item again, so a key that
 * was changed or a draft that was published or deleted stops the preview. Nothing else opens
 * a draft: the framework's draft mode is not used (its cookie is one for the whole build).
 */

export type PreviewTarget = {
  endpoint: 'posts' | 'jobs';
  contentId: string;
  draftKey: string;
  /**
   * 「訪問者に見える部分」: the draft as a signed-out visitor gets it, cut by the access policy
   * (docs/decisions/029-divider-is-the-lead.md). Absent: the whole draft.
   */
  as?: 'visitor';
};
/** Long enough for an editor's review, short enough that a forwarded browser soon stops. */
export const PREVIEW_SECONDS = 2 * 60 * 60;
const PURPOSE = 'preview';

/** Whether the draft key opens this item's draft. */
export async function isValidDraftKey(
  endpoint: string,
  contentId: string,
  draftKey: string,
): Promise<boolean> {
  if (!CONTENT_ID.test(contentId) || !draftKey || draftKey.length > 100) return false;
  if (usesBuiltInContent()) {
    const expected = await findDraftKey(await getDb(), endpoint, contentId);
    return expected !== null && sameSecret(expected, draftKey);
  }
  // A hosted service knows its own keys: the draft read succeeds only with the right one.
  try {
    await siteContent().getListDetail({ endpoint, contentId, queries: { draftKey, fields: 'id' } });
    return true;
  } catch (error) {
    if (isContentRequestError(error) && error.status !== undefined && error.status < 500)
      return false;
    throw error;
  }
}

const previewTargetSchema = z.object({
  endpoint: z.enum(['posts', 'jobs']),
  contentId: z.string().regex(CONTENT_ID),
  draftKey: z.string().min(1).max(100),
  as: z.literal('visitor').optional(),
});

export function previewCookieValue(target: PreviewTarget, now?: number): string {
  const payload = Buffer.from(JSON.stringify(target)).toString('base64url');
  return signToken(PURPOSE, payload, { seconds: PREVIEW_SECONDS, now });
}

/** The target of a preview cookie whose signature and expiry are valid, else null. */
export function readPreviewCookie(value: string | undefined, now?: number): PreviewTarget | null {
  const payload = verifyToken(PURPOSE, value, { now });
  if (payload === null) return null;
  try {
    const parsed = previewTargetSchema.safeParse(
      JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function previewCookieHeader(value: string, maxAgeSeconds: number): string {
  return setCookieValue(PREVIEW_COOKIE, value, {
    maxAgeSeconds,
    secure: env().SITE_URL.startsWith('https:'),
  });
}

export async function endPreview(): Promise<void> {
  (await cookies()).delete(PREVIEW_COOKIE);
}

/**
 * The preview of this item: only when the page's preview cookie is valid, names this very
 * item, and its key still opens the item's draft.
 */
export async function activePreview(
  endpoint: PreviewTarget['endpoint'],
  contentId: string,
): Promise<PreviewTarget | undefined> {
  const target = readPreviewCookie((await cookies()).get(PREVIEW_COOKIE)?.value);
  if (!target || target.endpoint !== endpoint || target.contentId !== contentId) return undefined;
  return (await isValidDraftKey(endpoint, contentId, target.draftKey)) ? target : undefined;
}

/** The draft key to read this item with (activePreview's). */
export async function previewDraftKey(
  endpoint: PreviewTarget['endpoint'],
  contentId: string,
): Promise<string | undefined> {
  return (await activePreview(endpoint, contentId))?.draftKey;
}

function forbidden(): Response {
  const html = `<!doctype html><html lang="ja"><meta charset="utf-8"><title>プレビューできません</title>
<body style="font-family:sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.9">
<h1>プレビューできません</h1><p>プレビュー用の URL が正しくないか、下書きがすでに公開・削除されています。編集画面から改めてプレビューを開いてください。</p>
<p><a href="/">トップページへ戻る</a></p></body></html>`;
  return new Response(html, {
    status: 403,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * Staff (editor, admin) preview without a key: the item's own draft key, on the built-in
 * service. Null when the visitor is not staff or there is no draft.
 */
async function staffDraftKey(
  request: Request,
  endpoint: PreviewTarget['endpoint'],
  contentId: string,
): Promise<string | null> {
  if (!usesBuiltInContent() || !CONTENT_ID.test(contentId)) return null;
  const user = await userFromHeaders(request.headers);
  if (!isStaff(user)) return null;
  return findDraftKey(await getDb(), endpoint, contentId);
}

/**
 * GET handler of a preview URL: `?draftKey=…` checked (or a staff session), then draft mode
 * on and on to the page; `&as=visitor` shows the draft as a signed-out visitor gets it.
 */
export function previewRoute(
  endpoint: PreviewTarget['endpoint'],
  pagePath: (contentId: string) => string,
) {
  return async (
    request: Request,
    { params }: { params: Promise<{ contentId: string }> },
  ): Promise<Response> => {
    const { contentId } = await params;
    const query = new URL(request.url).searchParams;
    const given = query.get('draftKey') ?? '';
    const draftKey = (await isValidDraftKey(endpoint, contentId, given))
      ? given
      : await staffDraftKey(request, endpoint, contentId);
    if (!draftKey) return forbidden();
    const cookie = previewCookieValue({
      endpoint,
      contentId,
      draftKey,
      ...(query.get('as') === 'visitor' ? { as: 'visitor' as const } : {}),
    });
    return new Response(null, {
      status: 307,
      headers: {
        location: pagePath(contentId),
        'cache-control': 'no-store',
        'set-cookie': previewCookieHeader(cookie, PREVIEW_SECONDS),
      },
    });
  };
}
