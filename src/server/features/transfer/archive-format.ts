import 'server-only';
import { z } from '@/lib/zod';
import { isValidStorageKey } from '@/lib/media/storage-key';

/**
 * The transfer archive (`.tar.gz`), in this order:
 *   manifest.json   what it is: format version, when, from which app version, counts
 *   content.jsonl   one cms_contents row a line (both versions, draft key, dates, schedule)
 *   versions.jsonl  one cms_versions row a line, oldest first
 *   media.jsonl     one cms_media row a line
 *   files/<key>     every stored file the content or the media library points at
 * The rows come before the files, so an import validates every row before it stores a byte.
 */

export const ARCHIVE_FORMAT = 'axis-content-archive';
export const ARCHIVE_VERSION = 1;

export const MANIFEST_PATH = 'manifest.json';
export const CONTENT_PATH = 'content.jsonl';
export const VERSIONS_PATH = 'versions.jsonl';
export const MEDIA_PATH = 'media.jsonl';

/** One line's ceiling: a post's body and its draft may each be 200,000 characters of HTML. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const isoDate = z.iso.datetime({ offset: true });
const jsonObject = z.record(z.string(), z.unknown());
const contentId = z.string().regex(/^[A-Za-z0-9_-]{0,50}$/);

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  createdAt: isoDate,
  appVersion: z.string().max(100),
  counts: z.object({
    contents: z.number().int().min(0),
    versions: z.number().int().min(0),
    media: z.number().int().min(0),
    files: z.number().int().min(0),
  }),
  /** Content items per endpoint, for the people reading the archive. */
  endpoints: z.record(z.string(), z.number().int().min(0)).optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const CONTENT_STATUSES = ['PUBLISH', 'DRAFT', 'PUBLISH_AND_DRAFT', 'CLOSED'] as const;

export const contentRowSchema = z.object({
  endpoint: z.string().min(1).max(100),
  id: contentId,
  status: z.enum(CONTENT_STATUSES),
  data: jsonObject.nullable(),
  draftData: jsonObject.nullable(),
  draftKey: z.string().min(1).max(100).nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  publishedAt: isoDate.nullable(),
  revisedAt: isoDate.nullable(),
  scheduledAt: isoDate.nullable(),
  updatedBy: z.string().max(200).nullable(),
});
export type ContentRow = z.infer<typeof contentRowSchema>;

export const versionRowSchema = z.object({
  id: z.number().int().min(1),
  endpoint: z.string().min(1).max(100),
  contentId,
  data: jsonObject.nullable(),
  status: z.enum(CONTENT_STATUSES),
  action: z.string().min(1).max(50),
  actor: z.string().min(1).max(200),
  createdAt: isoDate,
});
export type VersionRow = z.infer<typeof versionRowSchema>;

export const mediaRowSchema = z.object({
  id: z.uuid(),
  url: z.string().max(600),
  kind: z.enum(['image', 'audio', 'video']),
  contentType: z.string().min(1).max(100),
  fileSize: z.number().int().min(0),
  width: z.number().int().min(1).nullable(),
  height: z.number().int().min(1).nullable(),
  alt: z.string().max(1000),
  filename: z.string().max(500),
  uploadedBy: z.string().max(200).nullable(),
  createdAt: isoDate,
});
export type MediaRow = z.infer<typeof mediaRowSchema>;

// ---------------------------------------------------------------------------------------------
// Our own media addresses and the storage keys behind them

/**
 * The storage key behind one of our media URLs (`/uploads/<key>` for public images and demo
 * media, `/media/<key>` for protected audio and video), or null for anything else, a key that
 * breaks the storage rules included.
 */
export function storageKeyOfUrl(url: string): string | null {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const match = /^\/(uploads|media)\/(.+)$/.exec(path);
  if (!match) return null;
  const [, root, key = ''] = match;
  if (!isValidStorageKey(key)) return null;
  if (root === 'uploads' && !(key.startsWith('images/') || key.startsWith('demo/'))) return null;
  if (root === 'media' && !key.startsWith('protected/')) return null;
  return key;
}

const LOCAL_MEDIA_URL = /\/(?:uploads|media)\/[a-z0-9_.\-/]+/g;

/** Every storage key a piece of stored content points at (fields and rich text alike). */
export function referencedKeys(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    for (const match of value.matchAll(LOCAL_MEDIA_URL)) {
      const key = storageKeyOfUrl(match[0]);
      if (key) into.add(key);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) referencedKeys(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) referencedKeys(item, into);
  }
  return into;
}
