/**
 * `npm run bench:search-readings`: the site search's index and query time without and with the
 * readings of kanji (docs/decisions/042-search-by-reading.md), BENCH_POSTS posts (10,000) on
 * embedded PGlite, both in one run (the machine is shared: compare the ratio, not the figures).
 * Queries run in process through the store as the site search does for an anonymous reader
 * (open text, whole-word matches first), 200 times each after 20 warm-ups; then the read of the
 * first page's stored readings, which the site search adds to mark what a kana term found.
 * Then the quality of the readings: how many of GOLD's kana words the reading of their sentence
 * holds, and how far the process's resident memory rose and the time while it read them and the
 * corpus (docs/decisions/048-lindera-readings.md).
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
import { analyseTexts, stopReadings } from '@/server/services/cms/search/readings';
import { seedCorpus } from './cms-corpus';

const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const RUNS = 200;
const QUERIES = ['和紙', 'デザイン', 'わし', 'こうげい', 'かみ'];

/**
 * Sentences and a word of each as a reader would type it in kana (the standard reading): the
 * benchmark corpus's vocabulary and common words in context, with the words IPADIC splits or
 * reads otherwise (竹細工, 曲木) left in, so that a better analyser would score higher.
 */
const GOLD: readonly (readonly [sentence: string, kana: string])[] = [
  ['漆の器を使う', 'うるし'],
  ['和紙に印刷する', 'わし'],
  ['伝統工芸の職人', 'こうげい'],
  ['伝統工芸の職人', 'しょくにん'],
  ['紙の本を読む', 'かみ'],
  ['神が宿る', 'かみ'],
  ['建築と都市', 'けんちく'],
  ['素材を選ぶ', 'そざい'],
  ['余白を生かす', 'よはく'],
  ['都市の風景', 'とし'],
  ['都市の風景', 'ふうけい'],
  ['家具と照明', 'かぐ'],
  ['家具と照明', 'しょうめい'],
  ['書体を選ぶ', 'しょたい'],
  ['活版印刷の工房', 'かっぱん'],
  ['活版印刷の工房', 'いんさつ'],
  ['展覧会の会場', 'てんらんかい'],
  ['木材の加工', 'もくざい'],
  ['陶磁器の産地', 'とうじき'],
  ['写真と映像', 'しゃしん'],
  ['写真と映像', 'えいぞう'],
  ['空間の構成', 'くうかん'],
  ['日本庭園を歩く', 'ていえん'],
  ['住宅の設計', 'じゅうたく'],
  ['美術館を訪ねる', 'びじゅつかん'],
  ['雑誌の編集', 'へんしゅう'],
  ['色彩の研究', 'しきさい'],
  ['構造の美しさ', 'こうぞう'],
  ['地域の資源', 'ちいき'],
  ['資源の循環', 'じゅんかん'],
  ['再生した紙', 'さいせい'],
  ['記憶に残る', 'きおく'],
  ['身体の感覚', 'しんたい'],
  ['道具を作る', 'どうぐ'],
  ['金継ぎの技法', 'きんつぎ'],
  ['漆芸の作家', 'しつげい'],
  ['藍染の布', 'あいぞめ'],
  ['組子の建具', 'くみこ'],
  ['鋳物の鍋', 'いもの'],
  ['竹細工の籠', 'たけざいく'],
  ['曲木の椅子', 'まげき'],
  ['箔押しの表紙', 'はくおし'],
  ['椅子に座る', 'いす'],
  ['机の上に置く', 'つくえ'],
  ['机の上に置く', 'うえ'],
  ['温かみのある木', 'あたたかみ'],
  ['手仕事の道具', 'てしごと'],
  ['生活の道具', 'せいかつ'],
  ['今日の予定', 'きょう'],
  ['明日の天気', 'あした'],
  ['一人で行く', 'ひとり'],
  ['大人の時間', 'おとな'],
  ['新しい意味を与える', 'あたらしい'],
  ['新しい意味を与える', 'いみ'],
  ['関係から考える', 'かんけい'],
  ['関係から考える', 'かんがえる'],
  ['東京都に行く', 'とうきょうと'],
  ['日本語の書体', 'にほんご'],
  ['京都の町家', 'まちや'],
  ['人気の場所', 'ばしょ'],
];

/** How far this process's resident memory (MiB) rose while `task` ran, sampled every 50 ms. */
async function rssRise<T>(task: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const before = process.memoryUsage().rss;
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, Math.round((process.memoryUsage().rss - before) / 2 ** 20));
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await task();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

/** How many GOLD words the readings hold, the misses, and what reading them cost. */
async function quality() {
  stopReadings();
  const started = performance.now();
  const { result: analyses, peak } = await rssRise(() =>
    analyseTexts(GOLD.map(([sentence]) => sentence)),
  );
  const ms = performance.now() - started;
  const misses = GOLD.flatMap(([sentence, kana], i) =>
    analyses[i]!.reading.includes(kana) ? [] : [`${sentence} (${kana}: ${analyses[i]!.reading})`],
  );
  console.log(
    `quality: ${GOLD.length - misses.length} of ${GOLD.length} kana words found in the readings (dictionary loaded and read them in ${ms.toFixed(0)} ms, the process's RSS rose ${peak} MiB)`,
  );
  for (const miss of misses) console.log(`  missed: ${miss}`);
  stopReadings();
}

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
    const started = performance.now();
    const { peak } = await rssRise(() => seedCorpus(POSTS, undefined, dataDir, readings));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
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
      `readings ${readings ? 'on ' : 'off'}: indexed in ${seconds} s (the process's RSS rose ${peak} MiB), table ${mib(size?.table)} MiB, texts ${mib(size?.text)} MiB, tokens ${mib(size?.tokens)} MiB`,
    );
    for (const [q, line] of Object.entries(times)) console.log(`  q=${q}: ${line}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await quality();
await measure(false);
await measure(true);
stopReadings();
