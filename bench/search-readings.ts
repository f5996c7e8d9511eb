/**
 * `npm run bench:search-readings`: the site search's index and query time without and with the
 * readings of kanji (docs/decisions/042-search-by-reading.md), BENCH_POSTS posts (10,000) on
 * embedded PGlite, both in one run (the machine is shared: compare the ratio, not the figures).
 * Queries run in process through the store as the site search does for an anonymous reader
 * (open text, whole-word matches first), 200 times each after 20 warm-ups; then the read of the
 * first page's stored readings, which the site search adds to mark what a kana term found.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { findEndpoint } from '../src/lib/cms/model';
import { parseListQuery } from '@/server/services/cms/query/params';
import { readingPairsOf, reindexDone } from '@/server/services/cms/search-index';
import { listContents } from '@/server/services/cms/store';
import { openDatabase } from '@/server/platform/db/client';
import { stopReadings } from '@/server/services/cms/search/readings';
import { seedCorpus } from './cms-corpus';

const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const RUNS = 200;
const QUERIES = ['和紙', 'デザイン', 'わし', 'こうげい', 'かみ'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** p50 and p95 of RUNS runs after 20 warm-ups. */
async function timed(task: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 20; i++) await task();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await task();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return `p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`;
}

async function measure(readings: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-readings-'));
  try {
    await seedCorpus(POSTS, undefined, dataDir, readings);
    const database = await openDatabase({ dataDir });
    const posts = findEndpoint('posts')!;
    const answer: unknown = await database.db.execute(
      sql`SELECT pg_total_relation_size('cms_contents')::text AS table,
        sum(octet_length(search_text) + octet_length(open_text))::text AS text,
        sum(pg_column_size(search_tokens) + pg_column_size(open_tokens))::text AS tokens
        FROM cms_contents`,
    );
    const size = (answer as { rows: { table?: string; text?: string; tokens?: string }[] }).rows[0];
    const times: Record<string, string> = {};
    for (const q of QUERIES) {
      const query = {
        ...parseListQuery(new URLSearchParams({ q, limit: '10', depth: '0' })),
        scope: { kind: 'open' } as const,
      };
      const run = () => listContents(database.db, posts, query, { kind: 'published' });
      const shown = (await run()).contents.map((item) => String(item.id));
      const readings = () => readingPairsOf(database.db, 'posts', shown, query.scope);
      const found = (await run()).totalCount;
      times[q] =
        `${await timed(run)}, ${found} found; readings of the ${shown.length} shown: ${await timed(readings)}`;
    }
    // The scoped queries started the reindex of the seeded categories: let it finish.
    await reindexDone(database.db);
    await database.close();
    const mib = (bytes: string | undefined) => (Number(bytes) / 2 ** 20).toFixed(1);
    console.log(
      `readings ${readings ? 'on ' : 'off'}: table ${mib(size?.table)} MiB, texts ${mib(size?.text)} MiB, tokens ${mib(size?.tokens)} MiB`,
    );
    for (const [q, line] of Object.entries(times)) console.log(`  q=${q}: ${line}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await measure(false);
await measure(true);
stopReadings();
