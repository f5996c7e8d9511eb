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
import { sql } from 'drizzle-orm';
import { createApiKey } from '@/server/cms/api-keys';
import { findEndpoint } from '@/server/cms/model';
import { searchColumns } from '@/server/cms/search-index';
import { openDatabase } from '@/server/db/client';
import { cmsContents } from '@/server/db/schema';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { load, peakRssMiB, root, startServer } from './lib';

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CATEGORIES = 20;

/** Deterministic pseudo-random text from a design vocabulary, so runs are comparable. */
function generator(seed: number) {
  let s = seed >>> 0;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const words = [
    'デザイン',
    '建築',
    '素材',
    '光',
    '余白',
    '都市',
    '家具',
    '照明',
    '書体',
    '印刷',
    '展覧会',
    '工芸',
    '木材',
    '陶磁器',
    '写真',
    '映像',
    '空間',
    '庭園',
    '住宅',
    '美術館',
    'ブランド',
    'パッケージ',
    '編集',
    '紙',
    '色彩',
    '構造',
    '職人',
    '地域',
    '循環',
    '再生',
    'Bauhaus',
    'typography',
    'UI',
    '2026',
    '記憶',
    '風景',
    '身体',
    '道具',
  ];
  const rare = [
    '金継ぎ',
    '漆芸',
    '活版',
    '曲木',
    '藍染',
    '組子',
    '和紙',
    '箔押し',
    '鋳物',
    '竹細工',
  ];
  const word = () => words[Math.floor(next() * words.length)]!;
  const sentence = () =>
    `${word()}と${word()}の関係から、${word()}のあり方を考える。${word()}は${word()}に新しい意味を与えている。`;
  return {
    next,
    title: (i: number) => `${word()}と${word()}をめぐって 第${i}回`,
    body: (i: number) =>
      `<p>${sentence()}${sentence()}</p><h2>${word()}について</h2><p>${sentence()}${i % 97 === 0 ? rare[(i / 97) % rare.length] : ''}${sentence()}</p>`,
  };
}

async function seed(databaseUrl: string | undefined, dataDir: string): Promise<string> {
  const started = Date.now();
  const database = await openDatabase({ databaseUrl, dataDir });
  const posts = findEndpoint('posts')!;
  const gen = generator(42);
  const now = Date.UTC(2026, 0, 1);
  await database.db.insert(cmsContents).values(
    Array.from({ length: CATEGORIES }, (_, i) => ({
      endpoint: 'categories',
      id: `cat-${i}`,
      status: 'PUBLISH',
      data: { name: `特集 ${i}` },
      createdAt: new Date(now),
      updatedAt: new Date(now),
      publishedAt: new Date(now),
      revisedAt: new Date(now),
    })),
  );
  for (let offset = 0; offset < POSTS; offset += 1000) {
    const rows = [];
    for (let i = offset; i < Math.min(POSTS, offset + 1000); i++) {
      const data = {
        title: gen.title(i),
        description: `${gen.title(i)}の記録。`,
        body: gen.body(i),
        isPublicPreview: i % 6 === 0,
        category: `cat-${i % CATEGORIES}`,
        seriesOrder: i,
      };
      const at = new Date(now + i * 60_000);
      rows.push({
        endpoint: 'posts',
        id: `post-${String(i).padStart(6, '0')}`,
        status: 'PUBLISH',
        data,
        createdAt: at,
        updatedAt: at,
        publishedAt: at,
        revisedAt: at,
        ...searchColumns(posts, data),
      });
    }
    await database.db.insert(cmsContents).values(rows);
  }
  const { key } = await createApiKey(database.db, { name: 'bench', permissions: ['GET'] });
  await database.db.execute(sql`ANALYZE`);
  await database.close();
  console.log(`  seeded ${POSTS} posts in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return key;
}

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
if (staleBuildReason(root, settings) && runNextBuild(root, settings) !== 0) process.exit(1);

const results: { rows: Row[]; peak: number; name: string }[] = [];

console.log(`embedded PGlite, ${POSTS} posts`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-cms-'));
const embeddedKey = await seed(undefined, dataDir);
results.push({
  name: 'PGlite',
  ...(await measure('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, embeddedKey)),
});
fs.rmSync(dataDir, { recursive: true, force: true });

if (process.env.DATABASE_URL) {
  console.log(`PostgreSQL server, ${POSTS} posts`);
  const serverKey = await seed(process.env.DATABASE_URL, 'unused');
  results.push({
    name: 'PostgreSQL',
    ...(await measure('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL }, serverKey)),
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
