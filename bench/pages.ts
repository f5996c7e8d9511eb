/**
 * `npm run bench:pages`: the reading pages on a production build with the demo corpus plus
 * 10,000 generated posts (BENCH_POSTS to change), embedded PGlite:
 * - anonymous `/posts/{id}` with autocannon (10 connections, 10 s) against a plain Node http
 *   server sending the same HTML bytes, in the same run: req/s of both and the ratio, p50 and
 *   p99, the server's peak memory (target: at least half of the plain server);
 * - Lighthouse (mobile settings, Debian's chromium) on `/`, a post and a movie page (targets:
 *   performance ≥ 95, accessibility, best practices and SEO 100), with LCP, CLS and TBT;
 * - first-load JavaScript per route: every script the page's HTML loads, gzip-compressed, beside
 *   the framework's floor (bench/bare-app) and the site's own share above it (target: a post
 *   page ≤ 130 KB, below the floor of Next.js 16.4; see docs/benchmarks.md).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '@/server/db/client';
import { copyDemoMedia, seedDemoContent } from '@/server/cms/seed/seed';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { seedCorpus } from './cms-corpus';
import { firstLoadJsBytes, frameworkFloorBytes } from './first-load-js';
import { load, peakRssMiB, plainServer, root, startServer } from './lib';

const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const run = promisify(execFile);

const settings = loadBuildSettings();
if (staleBuildReason(root, settings) && runNextBuild(root, settings) !== 0) process.exit(1);

console.log(`demo corpus + ${POSTS} posts on embedded PGlite`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-pages-'));
{
  const database = await openDatabase({ dataDir });
  await copyDemoMedia(path.join(dataDir, 'uploads'));
  await seedDemoContent(database.db);
  await database.close();
}
await seedCorpus(POSTS, undefined, dataDir);

const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
const base = `http://127.0.0.1:${server.port}`;
const postPath = `/posts/post-${String(Math.floor(POSTS / 2)).padStart(6, '0')}`;
const moviePath = '/movies/movie-001';

// Throughput: the framework (through the front server's page cache) against the ceiling.
const html = Buffer.from(await (await fetch(base + postPath)).arrayBuffer());
const site = await load(base + postPath, SECONDS);
const plain = await plainServer(html, 'text/html; charset=utf-8');
const ceiling = await load(`http://127.0.0.1:${plain.port}/`, SECONDS);
plain.close();

// First-load JavaScript per route, and the framework's own floor built by the same Next.js.
const js = [];
for (const route of ['/', postPath, moviePath, '/posts', '/login'])
  js.push({ route, kb: (await firstLoadJsBytes(base + route)) / 1024 });
const floorKb = (await frameworkFloorBytes()) / 1024;

// Lighthouse, mobile (its default), the second of two runs per page.
type Lh = {
  route: string;
  perf: number;
  a11y: number;
  bp: number;
  seo: number;
  lcp: number;
  cls: number;
  tbt: number;
  /** Lighthouse's measure of this machine's CPU speed, for reading TBT across runs. */
  benchmarkIndex: number;
};
const lighthouse: Lh[] = [];
for (const route of ['/', postPath, moviePath]) {
  const out = path.join(dataDir, 'lh.json');
  // Twice: the first run warms what a live site has warm (optimised images, rendered pages).
  for (let pass = 0; pass < 2; pass++)
    await run(
      process.execPath,
      [
        path.join(root, 'node_modules/lighthouse/cli/index.js'),
        base + route,
        '--quiet',
        '--output=json',
        `--output-path=${out}`,
        '--only-categories=performance,accessibility,best-practices,seo',
        `--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
    );
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { numericValue: number }>;
    environment?: { benchmarkIndex?: number };
  };
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  lighthouse.push({
    route,
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
    lcp: Math.round(report.audits['largest-contentful-paint']?.numericValue ?? 0),
    cls: Number((report.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    tbt: Math.round(report.audits['total-blocking-time']?.numericValue ?? 0),
    benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? 0),
  });
}

const peak = peakRssMiB(server.process.pid!);
await server.stop();

// The same page rendered by the framework on every request (cache off), for comparison.
const uncached = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', PAGE_CACHE: 'off' });
const rendered = await load(`http://127.0.0.1:${uncached.port}${postPath}`, SECONDS);
await uncached.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
  `| ${name} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
console.log(`
## Pages benchmark (${new Date().toISOString().slice(0, 10)}, demo + ${POSTS} posts, ${os.cpus().length} cores, Node ${process.version})

autocannon, 10 connections, ${SECONDS} s; anonymous ${postPath} (${html.length} bytes of HTML); latency in ms.

| target | req/s | p50 | p99 | errors + non-2xx |
| --- | --- | --- | --- | --- |
${row('site (front server, page cache on)', site)}
${row('plain Node http, same bytes', ceiling)}
${row('site, PAGE_CACHE=off (rendered per request)', rendered)}

Ratio to the plain server: ${(site.requestsPerSec / ceiling.requestsPerSec).toFixed(2)}× (target ≥ 0.5). Peak server memory: ${peak} MiB.

Lighthouse (mobile):

| route | performance | accessibility | best practices | SEO | LCP ms | CLS | TBT ms | benchmarkIndex |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lighthouse.map((l) => `| ${l.route} | ${l.perf} | ${l.a11y} | ${l.bp} | ${l.seo} | ${l.lcp} | ${l.cls} | ${l.tbt} | ${l.benchmarkIndex} |`).join('\n')}

First-load JavaScript (gzip -9). The framework's floor, an App Router site of one layout, one
page and one link built by the same Next.js: ${floorKb.toFixed(1)} KB.

| route | KB | above the floor |
| --- | --- | --- |
${js.map((j) => `| ${j.route} | ${j.kb.toFixed(1)} | ${(j.kb - floorKb).toFixed(1)} |`).join('\n')}
`);
