/**
 * The stylesheets each page of the production build loads before its first paint, counted from
 * the build's own manifests (no server): for every page, the CSS files its client reference
 * manifest lists for the page and its layouts (the HTML links them, or preloads them for an
 * error boundary), their bytes and their bytes gzip -9. docs/decisions/050-css-per-page.md.
 *
 * `npm run bench:css` after `npm run build`; `npm run bench:css -- <regex>` prints only the
 * routes it matches (the mean is of every page). `BENCH_BUILD_DIR=<dir>` counts another
 * checkout's build (a before and after).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { root } from './lib';

type Manifest = { entryCSSFiles: Record<string, (string | { path: string })[]> };

function manifestsUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return manifestsUnder(file);
    return entry.name === 'page_client-reference-manifest.js' ? [file] : [];
  });
}

/** The manifest file sets `globalThis.__RSC_MANIFEST[route]`; read it without running it. */
function readManifest(file: string): Manifest {
  const source = fs.readFileSync(file, 'utf8');
  const json = source.slice(source.indexOf('= {') + 2).replace(/;\s*$/, '');
  return JSON.parse(json) as Manifest;
}

const build = path.resolve(process.env.BENCH_BUILD_DIR ?? root, '.next');
const app = path.join(build, 'server/app');
if (!fs.existsSync(app)) throw new Error(`no build at ${build}: run npm run build first`);
const only = new RegExp(process.argv[2] ?? '.');
const sizes = new Map<string, { bytes: number; gzip: number }>();
const sizeOf = (file: string) => {
  let size = sizes.get(file);
  if (!size) {
    const body = fs.readFileSync(path.join(build, file));
    size = { bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
    sizes.set(file, size);
  }
  return size;
};

const rows = manifestsUnder(app).map((file) => {
  const route = '/' + path.relative(app, path.dirname(file)).replace(/^page$|\/page$/, '');
  const files = new Set(
    Object.values(readManifest(file).entryCSSFiles).flatMap((list) =>
      list.map((entry) => (typeof entry === 'string' ? entry : entry.path)),
    ),
  );
  const total = [...files].reduce(
    (sum, css) => ({
      bytes: sum.bytes + sizeOf(css).bytes,
      gzip: sum.gzip + sizeOf(css).gzip,
    }),
    { bytes: 0, gzip: 0 },
  );
  return { route, files: files.size, ...total };
});
rows.sort((a, b) => a.route.localeCompare(b.route));

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
console.log('| page | stylesheets | KB | KB gzip |\n| --- | --- | --- | --- |');
for (const row of rows.filter((r) => only.test(r.route)))
  console.log(`| \`${row.route}\` | ${row.files} | ${kb(row.bytes)} | ${kb(row.gzip)} |`);
const mean = (key: 'files' | 'bytes' | 'gzip') =>
  rows.reduce((sum, row) => sum + row[key], 0) / rows.length;
console.log(
  `| mean of ${rows.length} pages | ${mean('files').toFixed(1)} | ${kb(mean('bytes'))} | ${kb(mean('gzip'))} |`,
);
