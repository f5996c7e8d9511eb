import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every page loads the root layout's styles first (src/styles/base.ts,
 * docs/decisions/050-css-per-page.md): the CSS chunker keeps them in one stylesheet that every
 * page shares, and a page's own modules in files after it, only if every route segment brings
 * them in first and in the same order. A page that starts with its own modules puts them between
 * the layout's in the build's one CSS order, and the shared file is cut around them.
 */

const SRC = path.resolve(import.meta.dirname, '..');
const BASE_IMPORT = "import '@/styles/base';";

function filesUnder(dir: string, name: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(file, name);
    return name.test(entry.name) ? [file] : [];
  });
}

/** The file an import names, for the project's own files ('@/…' or relative); else null. */
function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@/')
    ? path.join(SRC, specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const suffix of ['', '.ts', '.tsx', '/index.ts', '/index.tsx'])
    if (fs.existsSync(base + suffix) && fs.statSync(base + suffix).isFile()) return base + suffix;
  return null;
}

/** The module specifiers a file imports at run time, in order (type-only imports left out). */
function importsOf(source: string): string[] {
  return [
    ...source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)';/gm),
  ].map((match) => match[1]!);
}

/** The CSS modules a file brings in through its static imports, transitively. */
function cssModulesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith('.module.css')) found.add(path.relative(SRC, file));
    if (!/\.tsx?$/.test(file)) return;
    for (const specifier of importsOf(fs.readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, specifier);
      if (target) visit(target);
    }
  };
  visit(entry);
  return found;
}

describe('the shared styles (src/styles/base.ts)', () => {
  it('come first in every page and layout', () => {
    const segments = filesUnder(path.join(SRC, 'app'), /^(page|layout)\.tsx$/);
    expect(segments.length).toBeGreaterThan(50);
    const late = segments.filter((file) => {
      const imports = importsOf(fs.readFileSync(file, 'utf8')).filter(
        (specifier) => !specifier.endsWith('globals.css'),
      );
      return imports[0] !== '@/styles/base';
    });
    expect(
      late.map((file) => path.relative(SRC, file)),
      `first import: ${BASE_IMPORT}`,
    ).toEqual([]);
  });

  it('hold every CSS module of the root layout and of the error pages', () => {
    const base = listed('styles/base.ts');
    for (const segment of ['app/layout.tsx', 'app/error.tsx', 'app/not-found.tsx']) {
      const reached = cssModulesReached(path.join(SRC, segment));
      expect(reached.size, segment).toBeGreaterThan(0);
      expect(
        [...reached].filter((file) => !base.has(file)),
        segment,
      ).toEqual([]);
    }
  });
});

/** The CSS modules a style list (base.ts, item.ts) imports. */
function listed(file: string): Set<string> {
  return new Set(
    importsOf(fs.readFileSync(path.join(SRC, file), 'utf8')).map((specifier) =>
      path.relative(SRC, resolveImport(path.join(SRC, file), specifier)!),
    ),
  );
}

/**
 * An item's page (the post page above all: a media site's most read) loads its styles in as few
 * files as the build can make: every item page imports src/styles/item.ts right after base.ts,
 * so its modules come in one order and are shared as a block.
 */
const ITEM_PAGES = [
  'app/posts/[contentId]/page.tsx',
  'app/audios/[contentId]/page.tsx',
  'app/movies/[contentId]/page.tsx',
  'app/connect/[contentId]/page.tsx',
];

describe("the item pages' styles (src/styles/item.ts)", () => {
  it('come right after the shared styles on every item page', () => {
    for (const page of ITEM_PAGES)
      expect(importsOf(fs.readFileSync(path.join(SRC, page), 'utf8')).slice(0, 2), page).toEqual([
        '@/styles/base',
        '@/styles/item',
      ]);
  });

  it('hold every CSS module the post page reaches beyond the shared styles', () => {
    const base = listed('styles/base.ts');
    const item = listed('styles/item.ts');
    const post = [...cssModulesReached(path.join(SRC, ITEM_PAGES[0]!))].filter(
      (file) => !base.has(file),
    );
    expect(post.length).toBeGreaterThan(5);
    expect(post.filter((file) => !item.has(file))).toEqual([]);
  });
});
