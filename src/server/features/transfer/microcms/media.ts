import 'server-only';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  IMAGE_HEADER_BYTES,
  MediaRejection,
  inspectMedia,
  maxBytesFor,
} from '@/server/platform/storage/media-types';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { publicUrlFor, storageKeyFor } from '@/server/platform/storage/upload';
import type { MediaRow } from '../archive-format';
import { TransferError } from '../errors';
import type { MicroCmsClient } from './client';

/**
 * The files a microCMS service's content points at, brought into our storage: downloaded to a
 * temporary file (never whole in memory), checked by their bytes as an upload is
 * (media-types.ts), stored under a new key and registered in the media library.
 */

const ASSET_HOST = /(^|\.)microcms-assets\.io$/;

/**
 * The address to download for a URL found in the content, or null to leave it alone: files on
 * microCMS's asset hosts and on the API's own origin (another instance of this app serves its
 * uploads there). Elsewhere is the author's choice of an external image, kept as it is.
 */
export function downloadableUrl(raw: string, apiOrigin: string): string | null {
  let url: URL;
  try {
    url = new URL(raw, apiOrigin);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (ASSET_HOST.test(url.hostname)) {
    // Image-API parameters (?w=…) make a variant: the original is what we keep.
    url.search = '';
    url.hash = '';
    return url.toString();
  }
  if (url.origin === apiOrigin) {
    url.hash = '';
    return url.toString();
  }
  return null;
}

export type StoredDownload = {
  url: string;
  width?: number;
  height?: number;
  fileSize: number;
  row: MediaRow;
  key: string;
};

function filenameOf(url: string): string {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return name.slice(0, 200);
  } catch {
    return '';
  }
}

export async function downloadMedia(
  client: MicroCmsClient,
  storage: MediaStorage,
  url: string,
  options: { tempDir: string; alt: string; now: Date },
): Promise<StoredDownload> {
  const response = await client.request(url, { withKey: false, what: url });
  if (response.status === 404 || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new TransferError(`${url} が見つかりません (404)。`);
  }
  const temp = path.join(options.tempDir, `${randomUUID()}.part`);
  const limit = maxBytesFor('video');
  const head: Uint8Array[] = [];
  let headLength = 0;
  let size = 0;
  try {
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > limit) {
          await reader.cancel();
          throw new TransferError(`${url} は大きすぎるため取り込めません。`);
        }
        if (headLength < IMAGE_HEADER_BYTES) {
          const take = value.subarray(0, IMAGE_HEADER_BYTES - headLength);
          head.push(Uint8Array.from(take));
          headLength += take.length;
        }
        await handle.write(value);
      }
    } finally {
      await handle.close();
    }
    let media;
    try {
      media = await inspectMedia(Buffer.concat(head, headLength), size);
    } catch (error) {
      if (error instanceof MediaRejection) throw new TransferError(`${url}: ${error.message}`);
      throw error;
    }
    const key = storageKeyFor(media, options.now);
    await storage.put(key, { filePath: temp }, media.type.contentType);
    const ourUrl = publicUrlFor(key);
    return {
      url: ourUrl,
      key,
      width: media.width,
      height: media.height,
      fileSize: size,
      row: {
        id: randomUUID(),
        url: ourUrl,
        kind: media.type.kind,
        contentType: media.type.contentType,
        fileSize: size,
        width: media.width ?? null,
        height: media.height ?? null,
        alt: options.alt.slice(0, 1000),
        filename: filenameOf(url),
        uploadedBy: null,
        createdAt: options.now.toISOString(),
      },
    };
  } finally {
    await fs.rm(temp, { force: true });
  }
}
