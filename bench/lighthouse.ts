/**
 * Lighthouse as a reader's phone sees a page: the CLI's default settings, which are its standard
 * mobile preset (a 412×823 screen at DPR 1.75, simulated throttling: 150 ms RTT, 1.6 Mbps down,
 * the main thread's time × 4). No flag here changes that preset; the Chrome flags only keep the
 * browser quiet. Each page is measured 3 times in rounds, the framework's bare App Router page
 * (bench/bare-app) first in each round, so that all of them share the machine's load of the
 * moment, and each measure's median is kept.
 *
 * `npm run bench:lighthouse`: a production build on the demo corpus (embedded PGlite), `/`, a
 * post and `/service-plans` beside the bare page. bench/pages.ts uses the same measure.
 * `BENCH_COMPARE=http://127.0.0.1:<port>` adds the same pages of another build's server, each
 * measured just before this build's in every round.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { root } from './lib';

const run = promisify(execFile);

/** Chromium as the e2e suite finds it (scripts/e2e.ts): CHROME_PATH, else Debian's. */
export const CHROME = [
  process.env.CHROME_PATH,
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].find((p): p is string => !!p && fs.existsSync(p));

export type LighthouseRun = {
  perf: number;
  a11y: number;
  bp: number;
  seo: number;
  lcp: number;
  cls: number;
  tbt: number;
  fcp: number;
  /**
   * When the browser itself drew the first content and the largest, unthrottled: what the
   * simulation starts from (the requests and tasks that ended before them count towards the
   * simulated FCP and LCP).
   */
  drawnFcp: number;
  drawnLcp: number;
  /**
   * The scripts whose download ended before that largest paint: how many, and their bytes as
   * transferred. Lighthouse's LCP estimate counts them as needed for the paint (all of them here
   * are the framework's and the islands' async chunks, which the paint does not wait for) unless
   * it saw their evaluation begin after the paint, so a page drawn after its scripts arrived
   * reads about a second later than the same page drawn before.
   */
  scriptsBeforeLcp: number;
  scriptBytesBeforeLcp: number;
  /** The stylesheets that held the first paint back: how many, and their bytes as transferred. */
  cssFiles: number;
  cssBytes: number;
  /** The page's HTML as transferred (compressed). */
  htmlBytes: number;
  /** Lighthouse's measure of this machine's CPU speed, for reading TBT across runs. */
  benchmarkIndex: number;
};

/**
 * `BENCH_THROTTLING=devtools`: the same preset with the throttling applied to the browser (the
 * network and CPU really slowed, Lighthouse's `--throttling-method=devtools`) instead of
 * simulated from an unthrottled load; the default is the preset's own simulation.
 */
const THROTTLING = process.env.BENCH_THROTTLING === 'devtools' ? 'devtools' : 'simulate';

/** One Lighthouse run of `url`, standard mobile preset. */
export async function lighthouse(url: string): Promise<LighthouseRun> {
  if (!CHROME) throw new Error('Chromium not found: set CHROME_PATH');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-lh-'));
  const out = path.join(dir, 'lh.json');
  try {
    await run(
      process.execPath,
      [
        path.join(root, 'node_modules/lighthouse/cli/index.js'),
        url,
        '--quiet',
        '--output=json',
        `--output-path=${out}`,
        '--only-categories=performance,accessibility,best-practices,seo',
        ...(THROTTLING === 'devtools' ? ['--throttling-method=devtools'] : []),
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic',
      ],
      { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      categories: Record<string, { score: number | null }>;
      audits: Record<
        string,
        {
          numericValue?: number;
          details?: {
            debugData?: { networkStartTimeTs?: number };
            items?: {
              url?: string;
              totalBytes?: number;
              resourceType?: string;
              transferSize?: number;
              networkEndTime?: number;
              observedFirstContentfulPaint?: number;
              observedLargestContentfulPaint?: number;
              observedTimeOriginTs?: number;
            }[];
          };
        }
      >;
      environment?: { benchmarkIndex?: number };
    };
    const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
    const audit = (id: string) => report.audits[id]?.numericValue ?? 0;
    const items = (id: string) => report.audits[id]?.details?.items ?? [];
    const blockingCss = items('render-blocking-insight').filter((item) =>
      /\.css(?:$|\?)/.test(item.url ?? ''),
    );
    const html = items('network-requests').find((item) => item.resourceType === 'Document');
    const metrics = items('metrics')[0];
    const drawnLcp = metrics?.observedLargestContentfulPaint ?? 0;
    // The requests' times count from the first request, the metrics' from the navigation.
    const requestsFrom =
      ((report.audits['network-requests']?.details?.debugData?.networkStartTimeTs ?? 0) -
        (metrics?.observedTimeOriginTs ?? 0)) /
      1000;
    const scriptsBeforeLcp = items('network-requests').filter(
      (item) =>
        item.resourceType === 'Script' &&
        requestsFrom + (item.networkEndTime ?? Infinity) <= drawnLcp,
    );
    return {
      perf: score('performance'),
      a11y: score('accessibility'),
      bp: score('best-practices'),
      seo: score('seo'),
      lcp: Math.round(audit('largest-contentful-paint')),
      cls: Number(audit('cumulative-layout-shift').toFixed(3)),
      tbt: Math.round(audit('total-blocking-time')),
      fcp: Math.round(audit('first-contentful-paint')),
      drawnFcp: Math.round(metrics?.observedFirstContentfulPaint ?? 0),
      drawnLcp: Math.round(drawnLcp),
      scriptsBeforeLcp: scriptsBeforeLcp.length,
      scriptBytesBeforeLcp: scriptsBeforeLcp.reduce(
        (sum, item) => sum + (item.transferSize ?? 0),
        0,
      ),
      cssFiles: blockingCss.length,
      cssBytes: blockingCss.reduce((sum, item) => sum + (item.totalBytes ?? 0), 0),
      htmlBytes: html?.transferSize ?? 0,
      benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? 0),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export type LighthouseRow = { name: string; runs: LighthouseRun[]; median: LighthouseRun };

/** Each measure's median over the runs (each on its own: the runs' worst LCP need not be its worst score). */
export function medianRun(runs: LighthouseRun[]): LighthouseRun {
  const median = (key: keyof LighthouseRun) =>
    runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const keys = Object.keys(runs[0]!) as (keyof LighthouseRun)[];
  return Object.fromEntries(keys.map((key) => [key, median(key)])) as LighthouseRun;
}

/**
 * Each target `rounds` times, in rounds over all targets, after one warming run each (a live
 * site has its images optimised and its pages rendered).
 */
export async function lighthouseRounds(
  targets: { name: string; url: string }[],
  rounds = 3,
  log: (line: string) => void = () => {},
): Promise<LighthouseRow[]> {
  for (const target of targets) await lighthouse(target.url);
  const runs = new Map(targets.map((t) => [t.name, [] as LighthouseRun[]]));
  for (let round = 0; round < rounds; round++)
    for (const target of targets) {
      const result = await lighthouse(target.url);
      runs.get(target.name)!.push(result);
      log(
        `  round ${round + 1} ${target.name}: ${result.perf} (LCP ${result.lcp}, TBT ${result.tbt}, drawn ${result.drawnFcp}/${result.drawnLcp}, scripts before it ${result.scriptsBeforeLcp})`,
      );
    }
  return targets.map((t) => {
    const all = runs.get(t.name)!;
    return { name: t.name, runs: all, median: medianRun(all) };
  });
}

/** The rows as a Markdown table, each beside the first row (the bare page). */
export function lighthouseTable(rows: LighthouseRow[]): string {
  const bare = rows[0]!.median;
  return [
    '| page | performance (runs) | vs bare | LCP ms (runs) | vs bare | TBT ms | FCP ms | drawn FCP, LCP ms (runs) | scripts before drawn LCP (runs) | CLS | blocking CSS (files, KB) | HTML KB | a11y | BP | SEO | benchmarkIndex |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows
      .map(({ name, runs, median: m }) =>
        [
          name,
          `${m.perf} (${runs.map((r) => r.perf).join(', ')})`,
          m.perf - bare.perf,
          `${m.lcp} (${runs.map((r) => r.lcp).join(', ')})`,
          m.lcp - bare.lcp,
          m.tbt,
          m.fcp,
          `${m.drawnFcp}, ${m.drawnLcp} (${runs.map((r) => r.drawnLcp).join(', ')})`,
          `${m.scriptsBeforeLcp}, ${(m.scriptBytesBeforeLcp / 1024).toFixed(1)} KB (${runs.map((r) => r.scriptsBeforeLcp).join(', ')})`,
          m.cls,
          `${m.cssFiles}, ${(m.cssBytes / 1024).toFixed(1)}`,
          (m.htmlBytes / 1024).toFixed(1),
          m.a11y,
          m.bp,
          m.seo,
          m.benchmarkIndex,
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
  ].join('\n');
}

/** The site's pages beside the bare page, on a fresh demo corpus. */
async function main(): Promise<void> {
  const { openDatabase } = await import('@/server/platform/db/client');
  const { copyDemoMedia, seedDemoContent } = await import('@/server/features/seed/seed');
  const { loadBuildSettings, runNextBuild, staleBuildReason } =
    await import('../scripts/lib/build-freshness');
  const { startBareApp } = await import('./first-load-js');
  const { startServer } = await import('./lib');

  const settings = loadBuildSettings();
  if (staleBuildReason(root, settings) && (await runNextBuild(root, settings)) !== 0)
    process.exit(1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-lh-'));
  {
    const database = await openDatabase({ dataDir });
    await copyDemoMedia(path.join(dataDir, 'uploads'));
    await seedDemoContent(database.db);
    await database.close();
  }
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
  const bare = await startBareApp();
  const base = `http://127.0.0.1:${server.port}`;
  const post = process.env.BENCH_POST ?? '/posts/post-001';
  const pages = ['/', post, '/service-plans'];
  // Another build's server on the same demo corpus (`npm start` of main, say), measured in the
  // same rounds: a before and after that share the machine's load of the moment.
  const compare = process.env.BENCH_COMPARE;
  try {
    const rows = await lighthouseRounds(
      [
        { name: 'bench/bare-app', url: bare.url },
        ...pages.flatMap((page) => [
          ...(compare ? [{ name: `\`${page}\` (${compare})`, url: compare + page }] : []),
          { name: `\`${page}\``, url: base + page },
        ]),
      ],
      Number(process.env.BENCH_ROUNDS ?? 3),
      console.log,
    );
    const { version } = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8'),
    ) as { version: string };
    console.log(
      `\nLighthouse ${version}, mobile preset (${THROTTLING === 'devtools' ? 'applied' : 'simulated'} throttling), median of ${rows[0]!.runs.length}; ${path.basename(CHROME!)}; ${os.cpus().length} cores; ${new Date().toISOString().slice(0, 16)}Z\n`,
    );
    console.log(lighthouseTable(rows));
  } finally {
    bare.stop();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
