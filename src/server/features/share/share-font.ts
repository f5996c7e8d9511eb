import 'server-only';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { singleton } from '@/lib/singleton';

/**
 * Noto Sans JP Bold for the generated share images, from the project's own dependency
 * (@fontsource/noto-sans-jp, SIL OFL): nothing is fetched at build or run time. The package
 * splits the font into about 120 files by Unicode range (what its CSS's `unicode-range` says);
 * an image loads only the files its text needs (a title needs a handful), and keeps them.
 * WOFF, not WOFF2: satori reads TTF, OTF and WOFF only.
 */

const SHARE_FONT_FAMILY = 'Noto Sans JP';
const WEIGHT = 700;

type Subset = { file: string; ranges: [number, number][] };

const loaded = singleton<{ subsets?: Promise<{ dir: string; list: Subset[] }> }>(
  'share-font-subsets',
  () => ({}),
);

function packageDir(): string {
  // Resolved from the project's node_modules (the server runs from the project directory).
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  return path.dirname(require.resolve('@fontsource/noto-sans-jp/package.json'));
}

/** The `@font-face` rules of the package's CSS: each WOFF file and the code points it holds. */
export function parseSubsets(css: string): Subset[] {
  const list: Subset[] = [];
  for (const block of css.split('@font-face').slice(1)) {
    const file = /url\(\.\/files\/([^)]+\.woff)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !range) continue;
    const ranges = range.split(',').map((part): [number, number] => {
      const [from = '0', to] = part.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(from, 16), parseInt(to ?? from, 16)];
    });
    list.push({ file, ranges });
  }
  return list;
}

function loadSubsets() {
  loaded.subsets ??= (async () => {
    const dir = packageDir();
    const css = await readFile(path.join(dir, `${WEIGHT}.css`), 'utf8');
    return { dir, list: parseSubsets(css) };
  })();
  return loaded.subsets;
}

const files = singleton('share-font-files', () => new Map<string, Promise<Buffer>>());

export type ShareFont = { name: string; data: Buffer; weight: 700; style: 'normal' };

/**
 * The font files that hold the characters of `text` (each read once per process), and the
 * text less what none of them holds and emoji: the renderer would fetch a font or an emoji
 * image from the network for those, and nothing here goes to the network.
 */
export async function shareFonts(
  texts: readonly string[],
): Promise<{ fonts: ShareFont[]; texts: string[] }> {
  const { dir, list } = await loadSubsets();
  const wanted = new Set<string>();
  const drawable = texts.map((text) =>
    Array.from(text)
      .filter((char) => {
        const code = char.codePointAt(0)!;
        const subset = /\p{Extended_Pictographic}/u.test(char)
          ? undefined
          : list.find((s) => s.ranges.some(([from, to]) => code >= from && code <= to));
        if (subset) wanted.add(subset.file);
        return subset !== undefined;
      })
      .join(''),
  );
  const fonts = await Promise.all(
    [...wanted].map(async (file): Promise<ShareFont> => {
      let data = files.get(file);
      if (!data) {
        data = readFile(path.join(dir, 'files', file));
        files.set(file, data);
      }
      // Each file its own family: satori keeps one font per name and weight.
      return {
        name: `${SHARE_FONT_FAMILY} ${file}`,
        data: await data,
        weight: WEIGHT,
        style: 'normal',
      };
    }),
  );
  return { fonts, texts: drawable };
}
