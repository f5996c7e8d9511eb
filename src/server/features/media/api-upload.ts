import 'server-only';
import { authenticateApiKey } from '@/server/services/cms/api-keys';
import { enforceRateLimit } from '@/server/services/cms/api-key-limit';
import { CmsApiError } from '@/server/services/cms/errors';
import { type Db, getDb } from '@/server/platform/db/client';
import { errorResponse } from '@/server/platform/http/error-answer';
import {
  type UploadOptions as ReceiveUploadOptions,
  type UploadResult,
  receiveUpload,
} from '@/server/platform/storage/upload';
import { registerMedia } from './library';

/**
 * POST /api/media: upload one image, audio or video file, microCMS management-API style
 * (header X-MICROCMS-API-KEY with the POST permission, multipart field `file`), received by
 * src/server/platform/storage/upload.ts and recorded in the media library.
 */

export type UploadOptions = ReceiveUploadOptions & { db?: Db };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-store',
      ...headers,
    },
  });
}

async function upload(request: Request, options: UploadOptions): Promise<Response> {
  const db = options.db ?? (await getDb());
  const principal = await authenticateApiKey(db, request.headers.get('x-microcms-api-key'));
  if (!principal) throw new CmsApiError(401, 'X-MICROCMS-API-KEY header is invalid.');
  if (!principal.permissions.has('POST')) throw new CmsApiError(400, 'POST is forbidden.');
  await enforceRateLimit(db, principal, 'write');

  const received = await receiveUpload(request, options);
  // In the media library too, so editors find it (alt text is theirs to add there).
  await registerMedia(db, { ...received, uploadedBy: `key:${principal.id}` });
  const result: UploadResult = {
    url: received.url,
    ...(received.width !== undefined ? { width: received.width, height: received.height } : {}),
    fileSize: received.fileSize,
    contentType: received.contentType,
  };
  return json(201, result);
}

export async function handleMediaUpload(
  request: Request,
  options: UploadOptions = {},
): Promise<Response> {
  try {
    return await upload(request, options);
  } catch (error) {
    // MediaRejection, MultipartError and CmsApiError answer their own status and message.
    return errorResponse(error, {
      log: '[media] upload failed:',
      faultMessage: 'アップロードを保存できませんでした。時間をおいてもう一度お試しください。',
      blankMessage: 'Error',
    });
  }
}
