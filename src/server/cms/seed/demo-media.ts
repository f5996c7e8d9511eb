import 'server-only';

/**
 * The demo media shipped in assets/demo: every file, its public URL once copied into the
 * uploads, its size budget, and, for images, the dimensions and a description for `alt`.
 * The images are abstract compositions; nothing in them depicts a real person or place.
 */

export const DEMO_ASSETS_DIR = 'assets/demo';
export const DEMO_UPLOADS_SUBDIR = 'demo';

export type DemoAsset = {
  file: string;
  maxBytes: number;
  width?: number;
  height?: number;
  alt?: string;
};

const COVER_ALTS = [
  '淡い地に並ぶ、高さの異なるアーチ形',
  '濃いグレーの地に並ぶ、文字組みのような横線',
  'ベージュの地に重なる建物のような矩形と、黄色の円',
  '格子状に並ぶ紺とグレーの円',
  '高さの異なる縦の帯と、黄色の短い帯',
  '紺の水平線に半分沈む白い円',
  '茶色とベージュの斜めの帯',
  '四分円を組み合わせたグレーと黒の模様',
  '淡いグレーの地に並ぶアーチ形',
  '白い地に並ぶ文字組みのような横線と、黄色の四角',
  '黒い地に線で描かれた建物のような矩形',
  'ベージュの地に並ぶ円と、ひとつだけ黄色の円',
  '淡いグレーの地に並ぶ縦の帯',
  'セージ色の半円と、黄色の小さな円',
  '紺とグレーの斜めの帯',
  'テラコッタとベージュの四分円の模様',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

export const DEMO_ASSETS: readonly DemoAsset[] = [
  ...COVER_ALTS.map((alt, i) => ({
    file: `cover-${pad(i + 1)}.jpg`,
    maxBytes: 60 * 1024,
    width: 1200,
    height: 675,
    alt,
  })),
  ...[1, 2, 3, 4, 5, 6].map((n) => ({
    file: `avatar-${pad(n)}.png`,
    maxBytes: 15 * 1024,
    width: 256,
    height: 256,
    alt: '執筆者のイメージ（抽象的な図形）',
  })),
  ...[1, 2, 3, 4, 5].map((n) => ({
    file: `logo-${pad(n)}.png`,
    maxBytes: 15 * 1024,
    width: 320,
    height: 320,
  })),
  { file: 'audio-01.wav', maxBytes: 100 * 1024 },
  { file: 'audio-02.wav', maxBytes: 100 * 1024 },
  { file: 'movie-01.webm', maxBytes: 100 * 1024 },
];

/** All demo media together stay under this. */
export const DEMO_ASSETS_TOTAL_BUDGET = 2 * 1024 * 1024;

/** Sizes of the sound and video files, for `fileSize` in file values (checked by the tests). */
export const DEMO_FILE_SIZES: Readonly<Record<string, number>> = {
  'audio-01.wav': 80_044,
  'audio-02.wav': 80_044,
  'movie-01.webm': 33_859,
};

/**
 * Where a demo file lives in the uploads storage: images are public (`demo/…`, served at
 * /uploads/), sound and video are members' media (`protected/demo/…`, served only through
 * signed /media/ URLs).
 */
export const demoStorageKey = (file: string) =>
  file in DEMO_FILE_SIZES
    ? `protected/${DEMO_UPLOADS_SUBDIR}/${file}`
    : `${DEMO_UPLOADS_SUBDIR}/${file}`;

export const demoUrl = (file: string) =>
  file in DEMO_FILE_SIZES ? `/media/${demoStorageKey(file)}` : `/uploads/${demoStorageKey(file)}`;

export type MediaValue = { url: string; width: number; height: number; alt: string };

function asset(file: string): DemoAsset {
  const found = DEMO_ASSETS.find((a) => a.file === file);
  if (!found) throw new Error(`Unknown demo asset: ${file}`);
  return found;
}

/** A media field value for a shipped image; `alt` overrides the file's description. */
export function demoImage(file: string, alt?: string): MediaValue {
  const a = asset(file);
  return {
    url: demoUrl(file),
    width: a.width ?? 0,
    height: a.height ?? 0,
    alt: alt ?? a.alt ?? '',
  };
}

/** Cover n (1–16). */
export function demoCover(n: number, alt?: string): MediaValue {
  return demoImage(`cover-${pad(((n - 1) % COVER_ALTS.length) + 1)}.jpg`, alt);
}

export function demoFile(file: string): { url: string; fileSize: number } {
  return { url: demoUrl(file), fileSize: DEMO_FILE_SIZES[file] ?? 0 };
}
