/**
 * `npm run bench:cms`: the built-in content API with 100,000 posts (BENCH_POSTS to change),
 * on embedded PGlite and on a throwaway PostgreSQL server (when its binaries are present),
 * measured over HTTP with autocannon at 10 connections against `next start`:
 * - a filtered, ordered list of 10  (target p95 ≤ 20 ms)
 * - a detail read                   (target p95 ≤ 5 ms)
 * - a `q` keyword search            (target p95 ≤ 50 ms)
 * autocannon reports p97.5, not p95: a p97.5 under the target bounds the p95 too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedCorpus } from './cms-corpus';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { load, peakRssMiB, root, startServer } from './lib';

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

type Row = {
  target: string;
  requestsPerSec: number;
  p50: number;
  p975: number;
  p99: number;
  bad: number;
};

async function measure(
  name: string,
  env: Record<string, string>,
  key: string,
): Promise<{ rows: Row[]; peak: number }> {
  const api = '/api/v1/posts';
  const q = (word: string) => `q=${encodeURIComponent(word)}&limit=10&depth=0`;
  const filters = encodeURIComponent('category[equals]cat-7[and]isPublicPreview[not_equals]true');
  const targets: [string, string][] = [
    [
      'list: category[equals] and isPublicPreview[not_equals]true, orders=-publishedAt, limit=10',
      `${api}?filters=${filters}&orders=-publishedAt&limit=10&depth=0`,
    ],
    ['detail: /posts/{id}', `${api}/post-${String(Math.floor(POSTS / 2)).padStart(6, '0')}`],
    ['q: a rare word (金継ぎ)', `${api}?${q('金継ぎ')}`],
    ['q: a common word (建築)', `${api}?${q('建築')}`],
  ];
  const headers = { 'X-MICROCMS-API-KEY': key };
  const rows: Row[] = [];
  let peak = 0;
  // Uncached: the API's answer and count caches off (CMS_API_CACHE=off): every read hits the database.
  for (const cache of ['off', 'on'] as const) {
    const server = await startServer({
      ...env,
      CMS_RATE_LIMIT_READ: '1000000',
      CMS_API_CACHE: cache,
    });
    for (const [target, path] of targets) {
      const url = `http://127.0.0.1:${server.port}${path}`;
      const probe = await fetch(url, { headers });
      if (!probe.ok) throw new Error(`${target}: HTTP ${probe.status} ${await probe.text()}`);
      const r = await load(url, SECONDS, 10, headers);
      rows.push({
        target: `${name} ${target}, ${cache === 'on' ? 'cached' : 'uncached'}`,
        requestsPerSec: r.requestsPerSec,
        p50: r.p50,
        p975: r.p975,
        p99: r.p99,
        bad: r.errors + r.non2xx,
      });
    }
    peak = Math.max(peak, peakRssMiB(server.process.pid!));
    await server.stop();
  }
  return { rows, peak };
}

const settings = loadBuildSettings();
if (staleBuildReason(root, settings) && (await runNextBuild(root, settings)) !== 0) process.exit(1);

const results: { rows: Row[]; peak: number; name: string }[] = [];

console.log(`embedded PGlite, ${POSTS} posts`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-cms-'));
const embeddedKey = await seedCorpus(POSTS, undefined, dataDir);
results.push({
  name: 'PGlite',
  ...(await measure('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, embeddedKey)),
});
fs.rmSync(dataDir, { recursive: true, force: true });

if (process.env.DATABASE_URL) {
  console.log(`PostgreSQL server, ${POSTS} posts`);
  const serverKey = await seedCorpus(POSTS, process.env.DATABASE_URL, 'unused');
  results.push({
    name: 'PostgreSQL',
    ...(await measure(
      'PostgreSQL',
      {
        DATABASE_URL: process.env.DATABASE_URL,
        // A production-like start refuses to run without payments and the 特商法 operator.
        BILLING_SANDBOX: 'true',
        OPERATOR_NAME: 'ベンチ出版',
        OPERATOR_REPRESENTATIVE: 'ベンチ 太郎',
        OPERATOR_EMAIL: 'bench@example.com',
        OPERATOR_DISCLOSE_ON_REQUEST: 'true',
      },
      serverKey,
    )),
  });
} else {
  console.log(
    'PostgreSQL: skipped (run `bash scripts/with-postgres.sh npm run bench:cms` to include it)',
  );
}

console.log(`
## Content API benchmark (${new Date().toISOString().slice(0, 10)}, ${POSTS} posts, ${os.cpus().length} cores, Node ${process.version})

autocannon, 10 connections, ${SECONDS} s per row; latency in ms.

| target | req/s | p50 | p97.5 | p99 | errors + non-2xx |
| --- | --- | --- | --- | --- | --- |
${results
  .flatMap((r) => r.rows)
  .map((r) => `| ${r.target} | ${r.requestsPerSec} | ${r.p50} | ${r.p975} | ${r.p99} | ${r.bad} |`)
  .join('\n')}

Peak server memory: ${results.map((r) => `${r.name} ${r.peak} MiB`).join(', ')}.
`);
