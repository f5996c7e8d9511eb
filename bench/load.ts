/**
 * `npm run bench:load`: a mixed workload against the production build (scripts/start.ts, as
 * `npm start` runs it): anonymous, free and paid members' reading, client-side navigations and
 * prefetches (RSC), search, bookmarks, content API reads and writes, all at once for
 * `--duration` seconds (60) on `--connections` connections (100), each class counted apart,
 * beside a plain Node server sending the home page's bytes in the same run; the server's
 * resident memory sampled every second. Exits 1 on any socket error, timeout or answer outside
 * 2xx.
 *
 * `--mix readers --edit newest`: the editor changes the description of each of the 40 newest
 * posts in turn, one a second (bench/load/editor.ts), rather than of one post; the report adds how
 * many edits were accepted and how long until an anonymous visitor sees each.
 *
 * `--mix metered`: the readers' mix with the metered wall on (METERED_READS_PER_MONTH=3,
 * docs/decisions/055-metered-wall.md) and 20 more connections of free members (60 of them, each
 * signed in) loading the articles as documents, a member per request in turn (bench/load/mix.ts):
 * new reads, re-reads and used-up paywalls, beside the plain server of the same run.
 *
 * `--soak`: the same mix on 20 connections for 10 minutes; also exits 1 when the memory at the
 * end is more than 10% above where it was after the first minute.
 *
 * `BENCH_KEEP=1` keeps the work directory (the server's log, `--cpu-prof`'s profiles) for a closer look.
 *
 * Embedded PGlite in a temporary data directory by default; on the PostgreSQL server of
 * DATABASE_URL when it is set (a throwaway database: it is seeded).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  BUILD_SETTINGS_FILE,
  loadBuildSettings,
  runNextBuild,
  staleBuildReason,
} from '../scripts/lib/build-freshness';
import { plainServerProcess } from './load/baseline';
import {
  FREE_EMAIL,
  PAID_EMAIL,
  POSTGRES_SITE_ENV,
  articleIds,
  browserCookies,
  meteredEmail,
  checkAudiences,
  navigationTo,
  seedSite,
  signIn,
} from './load/fixture';
import { SEARCH_ADDRESSES, loadClasses, meteredClasses, readerClasses } from './load/mix';
import type { CookieJar } from './load/session';
import { type MemoryParts, printReport } from './load/report';
import { preflight, runMix } from './load/run';
import { runEditor } from './load/editor';
import { settleBackgroundWork } from './load/settle';
import { summariseProfile } from './cpu-profile';
import { type Instance, cpuMs, sampleMemory, serverPid, startInstance } from './load/server';
import { load, root } from './lib';

/** Where the server's memory is, from /api/metrics (prom-client's process and V8 figures), in MiB. */
async function memoryParts(base: string, token: string): Promise<MemoryParts> {
  const text = await (
    await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const mib = (name: string) => {
    const match = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
    return match ? Math.round(Number(match[1]) / 2 ** 20) : NaN;
  };
  return {
    heapUsed: mib('nodejs_heap_size_used_bytes'),
    heapTotal: mib('nodejs_heap_size_total_bytes'),
    external: mib('nodejs_external_memory_bytes'),
    pageCache: mib('page_cache_bytes'),
  };
}

/** The page cache's lookups so far, by result (hit, stale, miss), from /api/metrics. */
async function pageCacheCounts(base: string, token: string): Promise<Record<string, number>> {
  const text = await (
    await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^page_cache_lookups_total\{result="(\w+)"\} (\d+)/gm))
    counts[match[1]!] = Number(match[2]);
  return counts;
}

const { values } = parseArgs({
  options: {
    duration: { type: 'string' },
    connections: { type: 'string' },
    warmup: { type: 'string' },
    posts: { type: 'string' },
    'write-rate': { type: 'string' },
    soak: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    mix: { type: 'string' },
    edit: { type: 'string' },
    'node-flags': { type: 'string' },
  },
});
const parsed = z
  .object({
    soak: z.boolean(),
    // The server's CPU profile of the measured window, summarised (bench/cpu-profile.ts).
    'cpu-prof': z.boolean(),
    // full: every kind of client; readers: the readers of every audience and an editor;
    // metered: the readers with the metered wall on and metered free members besides.
    mix: z.enum(['full', 'readers', 'metered']).default('full'),
    // readers: the editor changes one post (one) or each of the 40 newest in turn (newest).
    edit: z.enum(['one', 'newest']).default('one'),
    duration: z.coerce.number().int().min(5).max(86_400).optional(),
    connections: z.coerce.number().int().min(8).max(2000).optional(),
    warmup: z.coerce.number().int().min(0).max(600).default(10),
    posts: z.coerce.number().int().min(0).max(100_000).default(1000),
    // Content API writes a second; 0 leaves them out (to see what they cost the readers).
    'write-rate': z.coerce.number().int().min(0).max(9).default(1),
    // Node/V8 flags added after npm start's own (the last of a repeated flag wins): to compare
    // memory settings on one build, e.g. --node-flags="--max-semi-space-size=8".
    'node-flags': z
      .string()
      .regex(
        /^(--[a-z0-9-]+(=[\w.-]+)?)( --[a-z0-9-]+(=[\w.-]+)?)*$/,
        'Node flags (--name or --name=value)',
      )
      .optional(),
  })
  .refine((o) => o.edit === 'one' || o.mix !== 'full', {
    message: '--edit newest は --mix readers とともに指定します (only with --mix readers)',
    path: ['edit'],
  })
  .safeParse(values);
if (!parsed.success) {
  console.error(
    `引数が正しくありません (invalid arguments): ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join(', ')}\n` +
      'usage: bench/load.ts [--mix full|readers|metered] [--edit one|newest] [--duration 60] [--connections 100] [--warmup 10] [--posts 1000] [--write-rate 1] [--soak] [--cpu-prof] [--node-flags="--flag=value …"]',
  );
  process.exit(2);
}
const options = {
  ...parsed.data,
  duration: parsed.data.duration ?? (parsed.data.soak ? 600 : 60),
  // readers: anonymous 20, free 10, paid 20, navigations 10, and the editor's one; metered: 20
  // connections of metered free members besides.
  connections:
    parsed.data.connections ??
    { full: parsed.data.soak ? 20 : 100, readers: 61, metered: 81 }[parsed.data.mix],
};
const meteredMix = options.mix === 'metered';
const readersMix = options.mix !== 'full';
/** --mix metered: the allowance, and the free members whose reads it counts. */
const METERED_ALLOWANCE = 3;
const METERED_MEMBERS = 60;
/** The editor works through the newest posts in its own loop (bench/load/editor.ts). */
const editNewest = options.edit === 'newest' && options['write-rate'] > 0;
/** The soak's reference: the memory after the first minute of load. */
const SETTLED_AFTER_S = 60;
const SOAK_LIMIT = 1.1;
if (options.soak && options.duration <= SETTLED_AFTER_S) {
  console.error(
    `--soak には ${SETTLED_AFTER_S} 秒より長い --duration が必要です (the soak compares the memory with its first minute).`,
  );
  process.exit(2);
}

const settings = loadBuildSettings();
if (staleBuildReason(root, settings) && (await runNextBuild(root, settings)) !== 0) process.exit(1);
// The build's own SITE_URL, so that the server serves this build instead of rebuilding.
const { SITE_URL } = JSON.parse(fs.readFileSync(path.join(root, BUILD_SETTINGS_FILE), 'utf8')) as {
  SITE_URL: string;
};

const databaseUrl = process.env.DATABASE_URL || undefined;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-load-'));
const dataDir = path.join(work, 'data');
const logFile = path.join(work, 'server.log');
fs.mkdirSync(dataDir);
const serverEnv: Record<string, string> = {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  SITE_URL,
  APP_SECRET: randomBytes(32).toString('hex'),
  // The bench reads the page cache's counts from /api/metrics.
  METRICS_TOKEN: randomBytes(32).toString('hex'),
  // Search counts per client address: the load gives each search its own (see mix.ts).
  TRUST_PROXY: 'true',
  // One key reads at hundreds a second here; the default is 100 a second per key.
  CMS_RATE_LIMIT_READ: '1000000',
  METERED_READS_PER_MONTH: meteredMix ? String(METERED_ALLOWANCE) : '0',
  ...(databaseUrl ? POSTGRES_SITE_ENV : {}),
};
// The seeding below runs the admin commands in this process: the same settings.
for (const [name, value] of Object.entries(serverEnv)) process.env[name] ??= value;

let failed = true;
let instance: Instance | undefined;
try {
  console.log(
    `[load] ${databaseUrl ? 'PostgreSQL' : '組み込み PGlite (embedded)'}: デモデータ + 記事 ${options.posts} 件を投入中 (seeding) …`,
  );
  const { readKey, writeKey } = await seedSite({
    dataDir,
    databaseUrl,
    posts: options.posts,
    meteredMembers: meteredMix ? METERED_MEMBERS : 0,
  });
  const profileDir = path.join(work, 'profile');
  const spawned = performance.now();
  instance = await startInstance(serverEnv, logFile, [
    ...(options['node-flags']?.split(' ') ?? []),
    ...(options['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ]);
  const pid = serverPid(instance);
  const memory = sampleMemory(pid);
  const rssStart = memory.now();
  const { base } = instance;
  console.log(`[load] サーバー起動 (server up) ${base}, pid ${pid}, RSS ${rssStart} MiB`);

  const sessions = {
    free: await signIn(base, SITE_URL, FREE_EMAIL),
    paid: await signIn(base, SITE_URL, PAID_EMAIL),
  };
  const jar: CookieJar = {
    free: await browserCookies(base, sessions.free),
    paid: await browserCookies(base, sessions.paid),
  };
  // --mix metered: each member signs in from its own address of 198.19.0.0/16 (RFC 2544).
  const meteredSessions: string[] = [];
  for (let n = 0; n < (meteredMix ? METERED_MEMBERS : 0); n++)
    meteredSessions.push(
      await signIn(base, SITE_URL, meteredEmail(n), `198.19.${n >> 8}.${n & 255}`),
    );
  const metered = await Promise.all(meteredSessions.map((s) => browserCookies(base, s)));
  // As a browser renews the 60-second audience cookie from the answers' Set-Cookie.
  const renewal = setInterval(() => {
    for (const member of ['free', 'paid'] as const)
      browserCookies(base, sessions[member]).then(
        (cookie) => (jar[member] = cookie),
        (error: unknown) => console.error(`[load] ${member} cookie renewal failed:`, error),
      );
    meteredSessions.forEach((session, n) => {
      browserCookies(base, session).then(
        (cookie) => (metered[n] = cookie),
        (error: unknown) => console.error(`[load] metered cookie renewal failed:`, error),
      );
    });
  }, 30_000);
  const ids = await articleIds(base, readKey, readersMix ? 40 : 30);
  const membersOnly = await checkAudiences(base, ids, jar.paid);
  console.log(`[load] ✓ 有料会員に /posts/${membersOnly} の会員限定部分が表示される`);
  const navigations = [];
  for (const target of [
    '/posts',
    '/series',
    '/jobs',
    ...ids.slice(0, 4).map((id) => `/posts/${id}`),
  ])
    for (const prefetch of [false, true])
      for (const member of [null, 'paid'] as const)
        navigations.push(await navigationTo(base, target, prefetch, jar, member));
  const site = {
    siteUrl: SITE_URL,
    ids: readersMix ? ids : ids.slice(0, 12),
    jar,
    readKey,
    writeKey,
    navigations,
    writeRate: editNewest ? 0 : options['write-rate'],
    metered,
  };
  const editor = (seconds: number) =>
    editNewest
      ? runEditor(base, {
          ids,
          writeKey,
          rate: options['write-rate'],
          seconds,
          name: `編集者 (the ${ids.length} newest articles in turn, ${options['write-rate']}/s)`,
        })
      : Promise.resolve(null);
  /** The editor's own connection is not autocannon's. */
  const mixConnections = options.connections - (editNewest ? 1 : 0);
  const classes = meteredMix
    ? meteredClasses(site)
    : readersMix
      ? readerClasses(site)
      : loadClasses(site);
  const problems = await preflight(base, classes);
  if (problems.length > 0)
    throw new Error(`負荷の前の確認で失敗 (preflight failed):\n  ${problems.join('\n  ')}`);

  // The ceiling, on the same machine in the same run.
  const home = Buffer.from(await (await fetch(`${base}/`)).arrayBuffer());
  const plain = await plainServerProcess(home, work);
  console.log(
    `[load] このプロセスの裏の処理を待つ (background work settled) in ${await settleBackgroundWork()} ms`,
  );
  const baselineSeconds = Math.min(options.duration, 10);
  const cpuBeforeBaseline = cpuMs(pid);
  const baseline = await load(`${plain.base}/`, baselineSeconds, options.connections);
  // The site's server is idle meanwhile; work of its own here would lower the ceiling.
  console.log(
    `[load] 基準の間のサーバー CPU (the site's server while the plain one ran): ${Math.round(cpuMs(pid) - cpuBeforeBaseline)} ms in ${baselineSeconds} s`,
  );
  await plain.stop();

  let warmupErrors = 0;
  if (options.warmup > 0) {
    console.log(`[load] ウォームアップ (warm-up) ${options.warmup} s …`);
    const [warm, warmEditor] = await Promise.all([
      runMix(base, classes, mixConnections, options.warmup),
      editor(options.warmup),
    ]);
    for (const c of [...warm.classes, ...(warmEditor ? [warmEditor.row] : [])]) {
      const n = c.errors + c.timeouts + c.unexpected;
      if (n > 0)
        console.error(`[load] ✗ warm-up ${c.name}: ${n} errors (${JSON.stringify(c.statuses)})`);
      warmupErrors += n;
    }
  }
  const rssWarm = memory.now();
  console.log(
    `[load] 計測 (measuring): ${options.connections} 接続 × ${options.duration} s, RSS ${rssWarm} MiB`,
  );
  console.log(
    `[load] このプロセスの裏の処理を待つ (background work settled) in ${await settleBackgroundWork()} ms`,
  );
  const cacheBefore = await pageCacheCounts(base, serverEnv.METRICS_TOKEN!);
  const mark = memory.mark();
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const profileWindow = { fromMs: started - spawned, toMs: 0 };
  // Each minute of a long run: where the memory is (PGlite's WebAssembly heap is external).
  const minuteParts: MemoryParts[] = [];
  const partsTimer = setInterval(() => {
    memoryParts(base, serverEnv.METRICS_TOKEN!).then(
      (parts) => minuteParts.push(parts),
      () => undefined,
    );
  }, 60_000);
  const [mix, edits] = await Promise.all([
    runMix(base, classes, mixConnections, options.duration),
    editor(options.duration),
  ]);
  clearInterval(partsTimer);
  if (edits) mix.classes.push(edits.row);
  const seconds = (performance.now() - started) / 1000;
  profileWindow.toMs = performance.now() - spawned;
  const serverCpuMs = cpuMs(pid) - cpuBefore;
  const samples = memory.since(mark);
  const highWater = memory.highWater();
  const cacheAfter = await pageCacheCounts(base, serverEnv.METRICS_TOKEN!);
  const pageCache = Object.fromEntries(
    Object.entries(cacheAfter).map(([result, n]) => [result, n - (cacheBefore[result] ?? 0)]),
  );
  memory.stop();
  clearInterval(renewal);
  await instance.stop();

  const rss = {
    start: rssStart,
    warm: rssWarm,
    peak: Math.max(rssWarm, ...samples),
    end: samples.at(-1) ?? rssWarm,
    settled: options.duration > SETTLED_AFTER_S ? samples[SETTLED_AFTER_S - 1] : undefined,
    minutes: samples.filter((_, i) => (i + 1) % 60 === 0),
    minuteParts,
    childrenPeak: memory.childrenPeak(),
    tree: memory.tree(),
    highWater,
  };
  const errors =
    mix.classes.reduce((n, c) => n + c.errors + c.timeouts + c.unexpected, 0) + warmupErrors;
  const memoryOk = !options.soak || rss.end <= rss.settled! * SOAK_LIMIT;
  printReport({
    options,
    database: databaseUrl ? 'PostgreSQL' : 'embedded PGlite',
    seconds,
    mix,
    baseline: { ...baseline, seconds: baselineSeconds, bytes: home.length },
    rss,
    serverCpuMs,
    nodeFlags: options['node-flags'],
    soakLimit: SOAK_LIMIT,
    warmupErrors,
    edits,
    pageCache,
    notes: [
      `search: TRUST_PROXY=true, each search from the next X-Forwarded-For of ${SEARCH_ADDRESSES} (the per-address limit is not what is measured)`,
      'content API reads: a GET-only key (published answers, cached as a site reads them); CMS_RATE_LIMIT_READ raised to 1,000,000/s for the bench (default 100/s per key)',
      options['write-rate'] === 0
        ? 'content API writes: left out (--write-rate 0)'
        : editNewest
          ? `the editor: a PATCH of the description of each of the ${ids.length} newest articles in turn, ${options['write-rate']}/s through the content API, one at a time; after each accepted edit a probe reads the article's page as an anonymous reader (no cookie, no Accept-Encoding) every 50 ms until the new text shows (its reads are not counted above)`
          : readersMix
            ? `the editor: a PATCH of one read article's description ${options['write-rate']}/s through the content API; each publishes it, and the pages that showed it are renewed`
            : `content API writes: paced at ${options['write-rate']}/s with one connection, under the default limit of 10/s per key; each PATCH publishes, and the pages that showed the post are renewed (the drafts' POST and DELETE change no page)`,
      `members: ${FREE_EMAIL} (free), ${PAID_EMAIL} (paid, monthly); bookmarks by the free member, alternately added and removed`,
      ...(meteredMix
        ? [
            `the metered wall on (METERED_READS_PER_MONTH=${METERED_ALLOWANCE}): ${METERED_MEMBERS} free members (${meteredEmail(0)} …) load the ${ids.length} articles as documents (Sec-Fetch-Dest: document, a browser's User-Agent), member n mod ${METERED_MEMBERS} reading article ⌊n / ${METERED_MEMBERS}⌋ in turn; ${FREE_EMAIL}'s reading is metered too`,
          ]
        : []),
    ],
  });
  if (options['cpu-prof'])
    console.log(
      `Profile of the server while measured (\`--cpu-prof\`):\n\n${summariseProfile(profileDir, root, profileWindow)}`,
    );
  failed = errors > 0 || !memoryOk;
  if (errors > 0) console.error(`✗ エラー ${errors} 件 (errors): ゼロであるべきです`);
  if (!memoryOk)
    console.error(
      `✗ メモリが 1 分後の ${rss.settled} MiB から ${rss.end} MiB に増えました (limit ×${SOAK_LIMIT})`,
    );
} catch (error) {
  console.error('[load] 失敗 (failed):', error instanceof Error ? error.message : error);
} finally {
  await instance?.stop();
  if (failed) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    console.error(`[load] サーバーのログ (server log): ${logFile}`);
  } else if (process.env.BENCH_KEEP) {
    console.log(`[load] 作業ディレクトリを残す (BENCH_KEEP, kept): ${work}`);
  } else {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
