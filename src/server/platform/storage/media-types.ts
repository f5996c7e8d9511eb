import 'server-only';
import { AppError } from '@/lib/errors';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { mp3FrameAt } from './mp3-frame';

/**
 * What an uploaded file really is, decided from its first bytes only: the client's
 * Content-Type and file name are never trusted. file-type (maintained, hundreds of formats)
 * says what the bytes are; our allow-list says what we take. Anything else (SVG above all,
 * which can carry scripts) is refused with the name of what was found.
 *
 * file-type reads magic numbers, not structure: three bytes make a JPEG for it, a lone MPEG
 * sync word an MP3. So each accepted format's header is also checked here (image sizes,
 * container lengths against the file's, MP3 frames in a row, MP4 brands and tracks): a cut or
 * forged header is refused, and the sizes an image needs are read on the way.
 */

export type MediaKind = 'image' | 'audio' | 'video';
export type MediaFormat =
  'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'mp3' | 'm4a' | 'wav' | 'ogg' | 'mp4' | 'webm';

export type MediaType = {
  format: MediaFormat;
  kind: MediaKind;
  contentType: string;
  /** Without the dot. */
  extension: string;
  label: string;
};

const type = (
  format: MediaFormat,
  kind: MediaKind,
  contentType: string,
  extension: string,
  label: string,
): MediaType => ({ format, kind, contentType, extension, label });

export const MEDIA_TYPES: Readonly<Record<MediaFormat, MediaType>> = {
  jpeg: type('jpeg', 'image', 'image/jpeg', 'jpg', 'JPEG'),
  png: type('png', 'image', 'image/png', 'png', 'PNG'),
  webp: type('webp', 'image', 'image/webp', 'webp', 'WebP'),
  gif: type('gif', 'image', 'image/gif', 'gif', 'GIF'),
  avif: type('avif', 'image', 'image/avif', 'avif', 'AVIF'),
  mp3: type('mp3', 'audio', 'audio/mpeg', 'mp3', 'MP3'),
  m4a: type('m4a', 'audio', 'audio/mp4', 'm4a', 'M4A (AAC)'),
  wav: type('wav', 'audio', 'audio/wav', 'wav', 'WAV'),
  ogg: type('ogg', 'audio', 'audio/ogg', 'ogg', 'OGG'),
  mp4: type('mp4', 'video', 'video/mp4', 'mp4', 'MP4'),
  webm: type('webm', 'video', 'video/webm', 'webm', 'WebM'),
};

const MB = 1024 * 1024;

/** The largest file of each kind; the upload route lowers the video limit (see upload.ts). */
export const DEFAULT_MAX_BYTES: Readonly<Record<MediaKind, number>> = {
  image: 10 * MB,
  audio: 200 * MB,
  video: 2048 * MB,
};

/** Decoders (and the image optimiser) must not be handed decompression bombs. */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** Enough to tell every supported format apart. */
export const SNIFF_BYTES = 64 * 1024;
/** Enough to find a JPEG's frame header behind large EXIF / ICC / XMP segments. */
export const IMAGE_HEADER_BYTES = 1024 * 1024;

/** Content types by file extension, for serving stored files (names come from MEDIA_TYPES). */
const CONTENT_TYPE_BY_EXTENSION: Readonly<
  Record<string, { contentType: string; kind: MediaKind }>
> = {
  jpg: { contentType: 'image/jpeg', kind: 'image' },
  jpeg: { contentType: 'image/jpeg', kind: 'image' },
  png: { contentType: 'image/png', kind: 'image' },
  webp: { contentType: 'image/webp', kind: 'image' },
  gif: { contentType: 'image/gif', kind: 'image' },
  avif: { contentType: 'image/avif', kind: 'image' },
  mp3: { contentType: 'audio/mpeg', kind: 'audio' },
  m4a: { contentType: 'audio/mp4', kind: 'audio' },
  wav: { contentType: 'audio/wav', kind: 'audio' },
  ogg: { contentType: 'audio/ogg', kind: 'audio' },
  oga: { contentType: 'audio/ogg', kind: 'audio' },
  opus: { contentType: 'audio/ogg', kind: 'audio' },
  mp4: { contentType: 'video/mp4', kind: 'video' },
  m4v: { contentType: 'video/mp4', kind: 'video' },
  webm: { contentType: 'video/webm', kind: 'video' },
};

/** The content type and kind of a stored file by its extension; null for anything else. */
export function mediaTypeForKey(key: string): { contentType: string; kind: MediaKind } | null {
  const dot = key.lastIndexOf('.');
  if (dot < 0 || dot < key.lastIndexOf('/')) return null;
  return CONTENT_TYPE_BY_EXTENSION[key.slice(dot + 1).toLowerCase()] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Byte helpers

const ascii = (b: Uint8Array, start: number, length: number): string => {
  let s = '';
  for (let i = start; i < start + length && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
};

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  b.length >= at + bytes.length && bytes.every((v, i) => b[at + i] === v);

const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const u32le = (b: Uint8Array, i: number) =>
  ((b[i + 3]! << 24) >>> 0) + ((b[i + 2]! << 16) | (b[i + 1]! << 8) | b[i]!);

function indexOfAscii(b: Uint8Array, text: string, from = 0, until = b.length): number {
  const first = text.charCodeAt(0);
  const last = Math.min(until, b.length) - text.length;
  outer: for (let i = from; i <= last; i++) {
    if (b[i] !== first) continue;
    for (let j = 1; j < text.length; j++) if (b[i + j] !== text.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Sniffing

export type SniffResult =
  | { ok: true; type: MediaType }
  /** Not a format we take; `detected` names what it looks like (for the error message). */
  | { ok: false; reason: 'unsupported'; detected: string }
  /** The header of a supported format is cut short or inconsistent with the file's size. */
  | { ok: false; reason: 'truncated'; detected: string };

const supported = (format: MediaFormat): SniffResult => ({ ok: true, type: MEDIA_TYPES[format] });
const unsupported = (detected: string): SniffResult => ({
  ok: false,
  reason: 'unsupported',
  detected,
});
const truncated = (format: string): SniffResult => ({
  ok: false,
  reason: 'truncated',
  detected: format in MEDIA_TYPES ? MEDIA_TYPES[format as MediaFormat].label : format,
});

/** What file-type calls the formats we accept (every other answer is refused). */
const ACCEPTED_BY_FILE_TYPE: Readonly<Record<string, MediaFormat>> = {
  jpg: 'jpeg',
  png: 'png',
  apng: 'png', // animated PNG is PNG to every browser
  webp: 'webp',
  gif: 'gif',
  avif: 'avif',
  mp3: 'mp3',
  wav: 'wav',
  ogg: 'ogg', // Vorbis
  opus: 'ogg',
  spx: 'ogg',
  oga: 'ogg', // FLAC in Ogg
  webm: 'webm',
  // The ISO media family: audio or video is decided from the brands and tracks below.
  mp4: 'mp4',
  m4v: 'mp4',
  f4v: 'mp4',
  m4a: 'm4a',
  m4b: 'm4a',
  m4p: 'm4a',
};

/**
 * The type of a file from its first bytes. `totalSize` (the whole file's length, when known)
 * lets container sizes be checked against the file; without it only the header is checked.
 */
export async function sniffMediaType(head: Uint8Array, totalSize?: number): Promise<SniffResult> {
  const size = totalSize ?? Number.POSITIVE_INFINITY;
  if (head.length === 0) return unsupported('空のファイル');
  // file-type reads within the bytes it is given; a throw would be its bug, not the upload's.
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  const format = found ? ACCEPTED_BY_FILE_TYPE[found.ext] : undefined;
  if (format) return checkHeader(format, head, size);
  // file-type names ISO media by the major brand alone: an AVIF may put mif1 there.
  if (found?.ext === 'heic') return sniffIsoBmff(head, size);
  // XML may be SVG, which is what matters most to name.
  if (found && found.ext !== 'xml') return unsupported(labelOf(found.ext));
  const cut = acceptedMagic(head);
  return cut ? truncated(cut) : unsupported(describeUnknown(head));
}

/** The structure file-type does not check: intact, consistent with the file's length. */
function checkHeader(format: MediaFormat, head: Uint8Array, size: number): SniffResult {
  switch (format) {
    case 'jpeg':
    case 'png':
    case 'gif':
      return readImageDimensions(format, head) ? supported(format) : truncated(format);
    case 'webp':
    case 'wav':
      return sniffRiff(head, size);
    case 'avif':
    case 'mp4':
    case 'm4a':
      return sniffIsoBmff(head, size);
    case 'webm':
      return sniffEbml(head);
    case 'ogg':
      return sniffOgg(head, size);
    case 'mp3':
      return ascii(head, 0, 3) === 'ID3' ? sniffId3(head, size) : sniffMpegAudio(head, 0, size);
  }
}

/**
 * Bytes that open like one of our formats although file-type could not tell what they are:
 * too few of them, or a broken header. Refused as a damaged file of that format.
 */
function acceptedMagic(b: Uint8Array): string | null {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47])) return 'png';
  if (ascii(b, 0, 4) === 'GIF8') return 'gif';
  if (ascii(b, 0, 4) === 'RIFF' && b.length < 12) return 'RIFF';
  if (ascii(b, 4, 4) === 'ftyp' && b.length < 16) return 'MP4';
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return 'WebM';
  if (ascii(b, 0, 4) === 'OggS') return 'ogg';
  if (ascii(b, 0, 3) === 'ID3') return 'mp3';
  return null;
}

// --- images ----------------------------------------------------------------------------------

export type ImageDimensions = { width: number; height: number };

/** What image-size calls each of our image formats (an AVIF with a mif1 major brand is "heif"). */
const IMAGE_SIZE_TYPES: Partial<Record<MediaFormat, readonly string[]>> = {
  jpeg: ['jpg'],
  png: ['png'],
  gif: ['gif'],
  webp: ['webp'],
  avif: ['avif', 'heif', 'heic'],
};

/**
 * The bytes a header must hold whole before its size counts: image-size reads the two fields it
 * needs and would take a PNG cut inside IHDR (signature, IHDR and its CRC: 33) or a GIF cut
 * inside its logical screen descriptor (13).
 */
const MIN_HEADER_BYTES: Partial<Record<MediaFormat, number>> = { png: 33, gif: 13 };

/**
 * Width and height from the header of a JPEG, PNG, GIF, WebP or AVIF, read by image-size (which
 * reads within the bytes it is given and throws on what it cannot read); null when unreadable,
 * not an image of this format, or zero-sized.
 */
export function readImageDimensions(
  format: MediaFormat,
  bytes: Uint8Array,
): ImageDimensions | null {
  const types = IMAGE_SIZE_TYPES[format];
  if (!types || bytes.length < (MIN_HEADER_BYTES[format] ?? 0)) return null;
  let read: ReturnType<typeof imageSize>;
  try {
    read = imageSize(bytes);
  } catch {
    return null;
  }
  const { width, height, type } = read;
  if (!type || !types.includes(type)) return null;
  return width > 0 && height > 0 ? { width, height } : null;
}

// --- RIFF: WebP, WAV -------------------------------------------------------------------------

function sniffRiff(b: Uint8Array, size: number): SniffResult {
  if (b.length < 12) return truncated('RIFF');
  const form = ascii(b, 8, 4);
  const riffSize = u32le(b, 4);
  // Streamed WAV writers leave 0 or 0xFFFFFFFF when the length was unknown.
  const sizeKnown = riffSize !== 0 && riffSize !== 0xffffffff;
  const fits = !sizeKnown || riffSize + 8 <= size;
  if (form === 'WEBP') {
    return fits && readImageDimensions('webp', b) ? supported('webp') : truncated('webp');
  }
  if (form === 'WAVE') {
    return fits && b.length >= 20 && ascii(b, 12, 4) === 'fmt '
      ? supported('wav')
      : truncated('wav');
  }
  return unsupported(`RIFF (${form.trim() || '不明'})`);
}

// --- ISO base media: AVIF, M4A, MP4 ----------------------------------------------------------

const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'dash',
  'msnv',
  'MSNV',
  'mmp4',
  'M4V ',
  'M4VH',
  'M4VP',
  'M4A ',
  'M4B ',
  'M4P ',
  'f4v ',
  'cmfc',
  'cmf2',
]);
const HEIF_BRANDS = new Set([
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'hevm',
  'hevs',
  'mif1',
  'msf1',
  'mif2',
]);

/** Every top-level box must lie within the file: a cut file claims more than it has. */
function boxesFitFile(b: Uint8Array, size: number): boolean {
  let offset = 0;
  while (offset + 8 <= b.length) {
    let boxSize = u32be(b, offset);
    if (boxSize === 1) {
      if (offset + 16 > b.length) break;
      boxSize = u32be(b, offset + 8) * 2 ** 32 + u32be(b, offset + 12);
    } else if (boxSize === 0) {
      if (!Number.isFinite(size)) break;
      boxSize = size - offset; // to the end of the file
    }
    if (boxSize < 8 || offset + boxSize > size) return false;
    offset += boxSize;
  }
  return true;
}

/** Handler types (vide, soun, …) of the tracks whose headers are within the bytes at hand. */
function trackHandlers(b: Uint8Array): Set<string> {
  const handlers = new Set<string>();
  for (let i = indexOfAscii(b, 'hdlr'); i >= 0; i = indexOfAscii(b, 'hdlr', i + 4)) {
    if (i + 16 <= b.length) handlers.add(ascii(b, i + 12, 4));
  }
  return handlers;
}

function sniffIsoBmff(b: Uint8Array, size: number): SniffResult {
  const ftypSize = u32be(b, 0);
  if (ftypSize < 16 || b.length < Math.min(ftypSize, 64) || ftypSize > size) {
    return truncated('MP4');
  }
  const major = ascii(b, 8, 4);
  const brands = new Set([major]);
  for (let i = 16; i + 4 <= Math.min(ftypSize, b.length); i += 4) brands.add(ascii(b, i, 4));
  const fits = boxesFitFile(b, size);

  if (brands.has('avif') || brands.has('avis')) return fits ? supported('avif') : truncated('avif');
  if (HEIF_BRANDS.has(major)) return unsupported('HEIC / HEIF');
  if (![...brands].some((brand) => MP4_BRANDS.has(brand))) {
    return unsupported(brands.has('qt  ') ? 'QuickTime (MOV)' : `ISO メディア (${major.trim()})`);
  }
  const handlers = trackHandlers(b);
  let format: MediaFormat;
  if (handlers.has('vide')) format = 'mp4';
  else if (handlers.has('soun')) format = 'm4a';
  else format = ['M4A ', 'M4B ', 'M4P '].includes(major) ? 'm4a' : 'mp4';
  return fits ? supported(format) : truncated(format);
}

// --- EBML: WebM ------------------------------------------------------------------------------

function readVint(b: Uint8Array, i: number, keepMarker: boolean) {
  const first = b[i];
  if (first === undefined || first === 0) return null;
  let length = 1;
  let mask = 0x80;
  while (!(first & mask)) {
    mask >>= 1;
    length++;
  }
  if (i + length > b.length) return null;
  let value = keepMarker ? first : first & (mask - 1);
  for (let k = 1; k < length; k++) value = value * 256 + b[i + k]!;
  return { value, length };
}

function sniffEbml(b: Uint8Array): SniffResult {
  const headerSize = readVint(b, 4, false);
  if (!headerSize) return truncated('WebM');
  const start = 4 + headerSize.length;
  const end = start + headerSize.value;
  if (end > b.length) return truncated('WebM');
  for (let i = start; i < end;) {
    const id = readVint(b, i, true);
    if (!id) break;
    const length = readVint(b, i + id.length, false);
    if (!length) break;
    const dataStart = i + id.length + length.length;
    if (id.value === 0x4282) {
      const docType = ascii(b, dataStart, length.value).replace(/\0+$/, '');
      if (docType === 'webm') return supported('webm');
      if (docType === 'matroska') return unsupported('Matroska (MKV)');
      return unsupported(`EBML (${docType})`);
    }
    i = dataStart + length.value;
  }
  return truncated('WebM');
}

// --- Ogg -------------------------------------------------------------------------------------

function sniffOgg(b: Uint8Array, size: number): SniffResult {
  if (b.length < 28 || b[4] !== 0) return truncated('ogg');
  const segments = b[26]!;
  const dataStart = 27 + segments;
  if (dataStart > b.length) return truncated('ogg');
  let pageLength = dataStart;
  for (let i = 27; i < dataStart; i++) pageLength += b[i]!;
  if (pageLength > size) return truncated('ogg');
  if (
    startsWith(b, [0x01, ...Array.from('vorbis', (c) => c.charCodeAt(0))], dataStart) ||
    ascii(b, dataStart, 8) === 'OpusHead' ||
    ascii(b, dataStart, 8) === 'Speex   ' ||
    startsWith(b, [0x7f, ...Array.from('FLAC', (c) => c.charCodeAt(0))], dataStart)
  ) {
    return b.length >= dataStart + 8 ? supported('ogg') : truncated('ogg');
  }
  if (ascii(b, dataStart + 1, 6) === 'theora') return unsupported('Ogg Theora (動画)');
  return unsupported('Ogg (不明なコーデック)');
}

// --- MPEG audio: MP3 -------------------------------------------------------------------------

/** The length of the MP3 frame whose header starts at i, or null. */
const mp3FrameLength = (b: Uint8Array, i: number) => mp3FrameAt(b, i)?.length ?? null;

function sniffMpegAudio(b: Uint8Array, at: number, size: number): SniffResult {
  // AAC in ADTS frames shares the sync word but has layer bits 00.
  if (((b[at + 1] ?? 0) & 0x06) === 0) return unsupported('AAC (ADTS)');
  const length = mp3FrameLength(b, at);
  if (length === null) return unsupported(at === 0 ? describeUnknown(b) : '不明な形式');
  if (at + length > size) return truncated('mp3');
  // A lone sync word is weak evidence: when the next frame is at hand, it must be one too.
  if (at + length + 4 <= b.length && mp3FrameLength(b, at + length) === null) {
    return unsupported('不明な形式');
  }
  return supported('mp3');
}

function sniffId3(b: Uint8Array, size: number): SniffResult {
  if (b.length < 10) return truncated('mp3');
  const version = b[3]!;
  const sizeBytes = [b[6]!, b[7]!, b[8]!, b[9]!];
  if (version < 2 || version > 4 || sizeBytes.some((v) => v >= 0x80)) {
    return unsupported('不明な形式');
  }
  const tagSize = sizeBytes.reduce((acc, v) => acc * 128 + v, 0);
  const footer = b[5]! & 0x10 ? 10 : 0;
  const audioStart = 10 + tagSize + footer;
  if (audioStart >= size) return truncated('mp3');
  if (audioStart + 4 > b.length) return supported('mp3'); // a large tag (cover art): trust it
  // Some writers leave padding or junk between the tag and the first frame.
  const searchEnd = Math.min(b.length - 4, audioStart + 8192);
  for (let i = audioStart; i <= searchEnd; i++) {
    if (b[i] !== 0xff || (b[i + 1]! & 0xe0) !== 0xe0) continue;
    if ((b[i + 1]! & 0x06) === 0) return unsupported('AAC (ADTS)');
    if (mp3FrameLength(b, i) !== null) return sniffMpegAudio(b, i, size);
  }
  if (ascii(b, audioStart, 4) === 'fLaC') return unsupported('FLAC');
  return b.length < size && searchEnd < audioStart + 8192
    ? supported('mp3')
    : unsupported('不明な形式 (ID3 タグ付き)');
}

// --- Everything else: name it for the error message -----------------------------------------

/** Names for what file-type finds, where its extension alone would not tell an editor much. */
const LABELS: Readonly<Record<string, string>> = {
  pdf: 'PDF',
  zip: 'ZIP (Office 文書などを含む)',
  docx: 'Word 文書 (DOCX)',
  xlsx: 'Excel 文書 (XLSX)',
  pptx: 'PowerPoint 文書 (PPTX)',
  gz: 'gzip',
  tif: 'TIFF',
  ico: 'ICO',
  psd: 'Photoshop (PSD)',
  heic: 'HEIC / HEIF',
  cr3: 'Canon RAW (CR3)',
  jxl: 'JPEG XL',
  mov: 'QuickTime (MOV)',
  mkv: 'Matroska (MKV)',
  avi: 'AVI',
  '3gp': '3GP',
  '3g2': '3GP',
  ogv: 'Ogg Theora (動画)',
  ogx: 'Ogg (不明なコーデック)',
  aac: 'AAC (ADTS)',
  exe: 'Windows 実行ファイル',
  elf: 'ELF 実行ファイル',
  wasm: 'WebAssembly',
  ps: 'PostScript',
};

function labelOf(extension: string): string {
  return LABELS[extension] ?? extension.toUpperCase();
}

/** Text and markup, which file-type leaves alone (XML aside): named so an editor knows. */
function describeUnknown(b: Uint8Array): string {
  // Markup and other text: look past a byte-order mark, white space and comments.
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (text.startsWith('<')) {
    if (/<svg[\s>/]/.test(text) || text.startsWith('<!doctype svg')) return 'SVG';
    if (
      /^<(!doctype html|html|head|body|script|meta|iframe|div|p|a|img|style|title)[\s>/]/.test(text)
    ) {
      return 'HTML';
    }
    if (/<(html|script|body)[\s>/]/.test(text)) return 'HTML';
    if (text.startsWith('<?xml')) return 'XML';
    return 'マークアップ (HTML / XML)';
  }
  if (text.startsWith('{') || text.startsWith('[')) return 'JSON / テキスト';
  const sample = b.subarray(0, 512);
  const printable = sample.every((v) => v === 9 || v === 10 || v === 13 || v >= 32);
  return printable ? 'テキスト' : '不明な形式';
}

// ---------------------------------------------------------------------------------------------
// Validation for upload

export type InspectedMedia = {
  type: MediaType;
  size: number;
  width?: number;
  height?: number;
};

/** Why a file is refused: 400 for what it is, 413 for how big it is. Messages are Japanese. */
export class MediaRejection extends AppError {
  declare readonly status: 400 | 413;

  constructor(status: 400 | 413, message: string) {
    super(message, { status, code: status === 413 ? 'media-too-large' : 'media-rejected' });
    this.name = 'MediaRejection';
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${+(bytes / (1024 * MB)).toFixed(1)} GB`;
  if (bytes >= MB) return `${+(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} バイト`;
}

const KIND_LABEL: Record<MediaKind, string> = { image: '画像', audio: '音声', video: '動画' };
const ACCEPTED =
  '画像は JPEG・PNG・WebP・GIF・AVIF、音声は MP3・M4A・WAV・OGG、動画は MP4・WebM に対応しています。';

export function unsupportedMessage(detected: string): string {
  return `対応していないファイル形式です (検出された形式: ${detected})。${ACCEPTED}`;
}

export function tooLargeMessage(kind: MediaKind | null, limit: number, size?: number): string {
  const what = kind ? `${KIND_LABEL[kind]}は` : '';
  const actual = size === undefined ? '' : ` (このファイル: ${formatBytes(size)})`;
  return `ファイルが大きすぎます。${what}${formatBytes(limit)}までです${actual}。`;
}

export type MediaLimits = Partial<Record<MediaKind, number>>;

export function maxBytesFor(kind: MediaKind, limits: MediaLimits = {}): number {
  return limits[kind] ?? DEFAULT_MAX_BYTES[kind];
}

/**
 * Everything an upload must pass: a supported type by its bytes, an intact header, the size
 * limit of its kind and, for images, readable and sane dimensions. `head` is the file's start
 * (IMAGE_HEADER_BYTES of it, or all of a smaller file); `size` the whole file's length.
 */
export async function inspectMedia(
  head: Uint8Array,
  size: number,
  limits: MediaLimits = {},
): Promise<InspectedMedia> {
  if (size === 0) throw new MediaRejection(400, 'ファイルが空です。');
  const sniffed = await sniffMediaType(head, size);
  if (!sniffed.ok) {
    throw new MediaRejection(
      400,
      sniffed.reason === 'unsupported'
        ? unsupportedMessage(sniffed.detected)
        : `${sniffed.detected} ファイルが壊れているか、途中で切れています。`,
    );
  }
  const { type } = sniffed;
  const limit = maxBytesFor(type.kind, limits);
  if (size > limit) throw new MediaRejection(413, tooLargeMessage(type.kind, limit, size));
  if (type.kind !== 'image') return { type, size };

  // JPEG, PNG, GIF and WebP sizes were read by the header check; AVIF's is read here.
  const dimensions = readImageDimensions(type.format, head);
  if (!dimensions) {
    throw new MediaRejection(
      400,
      `${type.format.toUpperCase()} ファイルが壊れているか、途中で切れています。`,
    );
  }
  if (dimensions.width * dimensions.height > MAX_IMAGE_PIXELS) {
    throw new MediaRejection(
      400,
      `画像の画素数が多すぎます (${dimensions.width}×${dimensions.height})。1 億画素以下にしてください。`,
    );
  }
  return { type, size, ...dimensions };
}
