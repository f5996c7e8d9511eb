import 'server-only';
import { type FailedResult, refusalAnswer } from '@/server/platform/http/error-answer';
import { MediaRejection, inspectMedia } from './media-types';
import { getStorage } from './storage';
import { publicUrlFor, storageKeyFor } from './upload';
import { refusedFields } from '@/server/platform/forms/submit';

/** A picture sent with a form (an avatar, a partner's logo), checked and stored as public. */
export type StoredImage = { url: string; width?: number; height?: number };

/**
 * Keeps an image posted with a form: its real type from its bytes (never the client's word),
 * at most `maxBytes`. Throws MediaRejection with a Japanese message for anything else.
 */
export async function storeFormImage(file: File, maxBytes: number): Promise<StoredImage> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const media = await inspectMedia(bytes, bytes.length, { image: maxBytes });
  if (media.type.kind !== 'image')
    throw new MediaRejection(400, '画像ファイル (JPEG、PNG、WebP など) を選んでください。');
  const key = storageKeyFor(media, new Date());
  await getStorage().put(key, bytes, media.type.contentType);
  return { url: publicUrlFor(key), width: media.width, height: media.height };
}

/**
 * A picture sent beside other fields (the profile's avatar, a partner's logo): stored, or the
 * form's 400 with the reason the picture was refused beside `field` (too big included: the
 * form is answered as a whole). A fault is thrown on.
 */
export async function receiveFormImage(
  file: File,
  maxBytes: number,
  field: string,
): Promise<{ ok: true; image: StoredImage } | { ok: false; result: FailedResult }> {
  try {
    return { ok: true, image: await storeFormImage(file, maxBytes) };
  } catch (error) {
    const refusal = refusalAnswer(error);
    if (!refusal) throw error;
    return {
      ok: false,
      result: refusedFields({ [field]: refusal.message }),
    };
  }
}

/** Deletes a stored picture no one uses any more; a failure leaves an orphan, nothing worse. */
export async function forgetStoredImage(url: string | null | undefined): Promise<void> {
  if (!url?.startsWith('/uploads/')) return;
  await getStorage()
    .delete(url.slice('/uploads/'.length))
    .catch(() => undefined);
}
