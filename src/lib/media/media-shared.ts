/**
 * The media library as the browser and the server both see it: a file's row, the list answer
 * of GET /api/admin/media, the routes, and the formatting the screens share. The server side
 * is src/server/features/media/.
 */

export type MediaKind = 'image' | 'audio' | 'video';
export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'audio', 'video'];

export const MEDIA_KIND_LABELS: Readonly<Record<MediaKind, string>> = {
  image: '画像',
  audio: '音声',
  video: '動画',
};

/** One file of the library, as the screens show it. */
export type MediaItem = {
  id: string;
  /** The address content stores (`/uploads/…` or `/media/protected/…`). */
  url: string;
  kind: MediaKind;
  contentType: string;
  fileSize: number;
  width: number | null;
  height: number | null;
  alt: string;
  filename: string;
  /** ISO date-time. */
  uploadedAt: string;
};

/** GET /api/admin/media?q=&kind=&page=&url= (and the library page's query). */
export type MediaListQuery = {
  q: string;
  kind: MediaKind | '';
  page: number;
  /** One file by the address content stores (the picker names a field's current file). */
  url?: string;
};

export type MediaListAnswer = {
  ok: true;
  items: MediaItem[];
  total: number;
  page: number;
  pageCount: number;
};

/** 201 after an upload through the console. */
export type MediaUploadAnswer = { ok: true; media: MediaItem; message: string };

export type MediaErrorAnswer = {
  ok: false;
  message: string | null;
  fieldErrors?: Record<string, string>;
  /** 409: the library already has a file with the same bytes; send `duplicate=keep` to add it anyway. */
  duplicate?: MediaItem;
};

/** The upload field that adds a file even when the library has the same bytes. */
export const KEEP_DUPLICATE = { name: 'duplicate', value: 'keep' } as const;

export const duplicateMessage = (existing: Pick<MediaItem, 'filename' | 'url'>) =>
  `同じ内容のファイルが「${displayName(existing)}」としてライブラリにあります。`;

export const ALT_MAX_LENGTH = 250;
export const ALT_REQUIRED_MESSAGE =
  '画像には代替テキストが必要です。画像に何が写っているかを短く入力してください。';
export const ALT_TOO_LONG_MESSAGE = `代替テキストは${ALT_MAX_LENGTH}文字以内で入力してください。`;

/** What an upload field's `accept` offers (the server decides from the bytes anyway). */
export const ACCEPT_BY_KIND: Readonly<Record<MediaKind, string>> = {
  image: 'image/jpeg,image/png,image/webp,image/gif,image/avif',
  audio: 'audio/mpeg,audio/mp4,audio/x-m4a,audio/wav,audio/ogg,.mp3,.m4a,.wav,.ogg',
  video: 'video/mp4,video/webm,.mp4,.webm',
};
export const ACCEPT_ALL = Object.values(ACCEPT_BY_KIND).join(',');

export const mediaPaths = {
  library: '/admin/media',
  item: (id: string) => `/admin/media/${encodeURIComponent(id)}`,
  /** POST multipart (alt, file) → 201 MediaUploadAnswer, or 303 for a plain post. GET → list. */
  api: '/api/admin/media',
  /** POST { alt } */
  apiAlt: (id: string) => `/api/admin/media/${encodeURIComponent(id)}/alt`,
  /** POST { confirm: 'yes' } */
  apiDelete: (id: string) => `/api/admin/media/${encodeURIComponent(id)}/delete`,
} as const;

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** 1536 → "1.5 KB", 734003 → "717 KB", 5 → "5 バイト". */
export function formatFileSize(bytes: number): string {
  const fixed = (n: number) => (n >= 100 ? String(Math.round(n)) : String(+n.toFixed(1)));
  if (bytes >= GB) return `${fixed(bytes / GB)} GB`;
  if (bytes >= MB) return `${fixed(bytes / MB)} MB`;
  if (bytes >= KB) return `${fixed(bytes / KB)} KB`;
  return `${bytes} バイト`;
}

/** "1200 × 675 px", or '' when the size is not known. */
export function formatDimensions(item: Pick<MediaItem, 'width' | 'height'>): string {
  return item.width && item.height ? `${item.width} × ${item.height} px` : '';
}

/** The name to show: the uploaded file's name, else the last segment of its address. */
export function displayName(item: Pick<MediaItem, 'filename' | 'url'>): string {
  return item.filename || item.url.split('/').at(-1) || item.url;
}

/** A guess from the browser's file type, to ask for alt text before an image is sent. */
export function looksLikeImage(file: { type: string; name: string }): boolean {
  return file.type.startsWith('image/') || /\.(jpe?g|png|webp|gif|avif)$/i.test(file.name);
}

const OPTIMIZABLE = /^\/uploads\/(?:images|demo)\/[a-z0-9/_.-]+\.(?:jpe?g|png|webp|gif|avif)$/;

/**
 * A small copy of an image for lists, from Next's optimiser (width 384 is in `imageSizes` of
 * next.config.ts, as src/server/platform/storage/image-url.ts requires), else the file itself.
 */
export function thumbnailUrl(url: string): string {
  return OPTIMIZABLE.test(url) && !url.includes('/.')
    ? `/_next/image?url=${encodeURIComponent(url)}&w=384&q=75`
    : url;
}
