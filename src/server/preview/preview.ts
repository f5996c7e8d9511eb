import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { cookies, draftMode } from 'next/headers';
import { env } from '@/env';
import { findDraftKey } from '@/server/cms/store';
import { isContentRequestError } from '@/server/content/client';
import { CONTENT_ID } from '@/server/content/schemas';
import { siteContent, usesBuiltInContent } from '@/server/content/site-content';
import { getDb } from '@/server/db/client';
import { isStaff, userFromHeaders } from '@/server/identity/session';

/**
 * Preview mode (SPEC §2): a valid draftKey for an item turns on the framework's draft mode
 * and remembers which draft to show. The key is checked before anything is turned on.
 */

const PREVIEW_COOKIE = 'axis_preview';
export type PreviewTarget = { endpoint: 'posts' | 'jobs'; contentId: string; draftKey: string };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

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

export async function startPreview(target: PreviewTarget): Promise<void> {
  (await draftMode()).enable();
  (await cookies()).set(PREVIEW_COOKIE, JSON.stringify(target), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: env().SITE_URL.startsWith('https:'),
  });
}

export async function endPreview(): Promise<void> {
  (await draftMode()).disable();
  (await cookies()).delete(PREVIEW_COOKIE);
}

/** The draft key to read this item with, when preview mode is on for it. */
export async function previewDraftKey(
  endpoint: PreviewTarget['endpoint'],
  contentId: string,
): Promise<string | undefined> {
  if (!(await draftMode()).isEnabled) return undefined;
  const raw = (await cookies()).get(PREVIEW_COOKIE)?.value;
  if (!raw) return undefined;
  try {
    const target = JSON.parse(raw) as Partial<PreviewTarget>;
    return target.endpoint === endpoint &&
      target.contentId === contentId &&
      typeof target.draftKey === 'string'
      ? target.draftKey
      : undefined;
  } catch {
    return undefined;
  }
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
 * on and on to the page.
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
    const given = new URL(request.url).searchParams.get('draftKey') ?? '';
    const draftKey = (await isValidDraftKey(endpoint, contentId, given))
      ? given
      : await staffDraftKey(request, endpoint, contentId);
    if (!draftKey) return forbidden();
    await startPreview({ endpoint, contentId, draftKey });
    return new Response(null, {
      status: 307,
      headers: { location: pagePath(contentId), 'cache-control': 'no-store' },
    });
  };
}
