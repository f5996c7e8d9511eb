import 'server-only';

/**
 * The demo media shipped in assets/demo: every file, its public URL once copied into the
 * uploads, its size budget, and, for images, the dimensions and a description for `alt`.
 * The images are abstract compositions; nothing in them depicts a real person or place.
 * Each audio episode is its transcript read by a speech synthesiser (espeak-ng), so what is
 * heard is what the page transcribes; each movie is a short silent animation of what its
 * description tells. Both are small enough to ship in the repository; scripts/demo-media makes
 * them (and covers 17–32) again.
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
  '淡いグレーの地に広がる同心円と、中心の紺の点',
  'ベージュと茶色の正方形の格子と、ひとつだけ傾いた黄色の正方形',
  'ベージュの地に積み重なる、茶色とテラコッタの水平の層',
  '階段状に高くなる、グレーと紺の矩形',
  '紺の地に重なる細い波線と、一本だけ黄色の波線',
  'ベージュの地に置かれたテラコッタの円と、黒い縦長の矩形',
  '右へ行くほど大きくなる黒い点の並びと、ひとつだけ黄色の点',
  '白い地に線で描いた間取りのような矩形と、セージ色の面',
  '黒い地に広がる同心円と、中心の黄色の点',
  '紺の地に並ぶグレーの正方形の格子と、ひとつだけ傾いた白い正方形',
  '淡いグレーの地に積み重なる、紺とセージ色の水平の層',
  '階段状に高くなる、テラコッタと茶色の矩形',
  '白い地に重なる細い波線と、一本だけテラコッタの波線',
  '黒い地に置かれた白い円と、黄色の縦長の矩形',
  '紺の地に、右へ行くほど大きくなるグレーの点の並び',
  '黒い地に線で描いた間取りのような矩形と、茶色の面',
] as const;

/** How many covers there are (cover-01.jpg … cover-NN.jpg). */
export const DEMO_COVER_COUNT = COVER_ALTS.length;

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
  ...[1, 2, 3, 4, 5, 6].map((n) => ({ file: `audio-${pad(n)}.mp3`, maxBytes: 300 * 1024 })),
  ...[1, 2, 3, 4, 5, 6].map((n) => ({ file: `movie-${pad(n)}.webm`, maxBytes: 300 * 1024 })),
];

/** All demo media together stay under this. */
export const DEMO_ASSETS_TOTAL_BUDGET = 4 * 1024 * 1024;

/** Sizes of the sound and video files, for `fileSize` in file values (checked by the tests). */
export const DEMO_FILE_SIZES: Readonly<Record<string, number>> = {
  'audio-01.mp3': 226_368,
  'audio-02.mp3': 187_272,
  'audio-03.mp3': 191_592,
  'audio-04.mp3': 208_440,
  'audio-05.mp3': 172_260,
  'audio-06.mp3': 171_720,
  'movie-01.webm': 154_223,
  'movie-02.webm': 299_725,
  'movie-03.webm': 113_456,
  'movie-04.webm': 231_398,
  'movie-05.webm': 107_938,
  'movie-06.webm': 185_399,
};

/** Playing time of the sound and video files in whole seconds, for `duration` (checked by the
 * tests against the files themselves). */
export const DEMO_FILE_SECONDS: Readonly<Record<string, number>> = {
  'audio-01.mp3': 75,
  'audio-02.mp3': 62,
  'audio-03.mp3': 64,
  'audio-04.mp3': 69,
  'audio-05.mp3': 57,
  'audio-06.mp3': 57,
  'movie-01.webm': 31,
  'movie-02.webm': 31,
  'movie-03.webm': 30,
  'movie-04.webm': 31,
  'movie-05.webm': 31,
  'movie-06.webm': 31,
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

/** Cover n (1 to DEMO_COVER_COUNT). */
export function demoCover(n: number, alt?: string): MediaValue {
  return demoImage(`cover-${pad(((n - 1) % COVER_ALTS.length) + 1)}.jpg`, alt);
}

export function demoFile(file: string): { url: string; fileSize: number } {
  return { url: demoUrl(file), fileSize: DEMO_FILE_SIZES[file] ?? 0 };
}

/** The playing time of a shipped sound or video file, in seconds. */
export function demoSeconds(file: string): number {
  const seconds = DEMO_FILE_SECONDS[file];
  if (seconds === undefined) throw new Error(`No playing time for demo file: ${file}`);
  return seconds;
}
