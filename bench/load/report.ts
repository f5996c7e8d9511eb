/** The load run as Markdown, ready for docs/benchmarks.md. */
import os from 'node:os';
import type { Load } from '../lib';
import type { ClassResult, Latencies } from './run';
import type { EditorReport } from './editor';

export type MemoryParts = {
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** The page cache's bodies (part of external). */
  pageCache: number;
};

export type Report = {
  options: { duration: number; connections: number; warmup: number; posts: number; soak: boolean };
  database: string;
  seconds: number;
  mix: { classes: ClassResult[]; all: Latencies };
  baseline: Load & { seconds: number; bytes: number };
  rss: {
    start: number;
    warm: number;
    peak: number;
    end: number;
    settled?: number;
    /** At the end of each minute of the run. */
    minutes: number[];
    /** The V8 heap and the memory outside it, at the end of each minute (from /api/metrics). */
    minuteParts: MemoryParts[];
    /** The processes the server started (the reading analyser's child), at most at once. */
    childrenPeak: number;
    /**
     * The server and its children summed at each sample: the most (from the server's start),
     * the server and each child (by executable) at that sample, and the last.
     */
    tree: { peak: number; end: number; atPeak: { server: number; children: string } };
    /** The most the server process held from its start, as the kernel counts it (VmHWM). */
    highWater: number;
  };
  /** CPU time the server process used while measured. */
  serverCpuMs: number;
  nodeFlags?: string;
  soakLimit: number;
  warmupErrors: number;
  /** `--edit newest`: the edits accepted, and how soon each showed. */
  edits?: EditorReport | null;
  /** The page cache's lookups while measured, by result. */
  pageCache: Record<string, number>;
  notes: string[];
};

const fixed = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

export function printReport(r: Report): void {
  const { classes, all } = r.mix;
  const total = {
    connections: classes.reduce((n, c) => n + c.connections, 0),
    requests: classes.reduce((n, c) => n + c.requests, 0),
    errors: classes.reduce((n, c) => n + c.errors, 0),
    timeouts: classes.reduce((n, c) => n + c.timeouts, 0),
    unexpected: classes.reduce((n, c) => n + c.unexpected, 0),
  };
  const perSecond = total.requests / r.seconds;
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    '',
    `## Load benchmark (${new Date().toISOString().slice(0, 10)}, ${r.database}, demo + ${r.options.posts} posts, ${os.cpus().length} cores, Node ${process.version})`,
    '',
    `${r.options.soak ? 'Soak: ' : ''}all classes at once, ${total.connections} connections, ${r.options.duration} s after a ${r.options.warmup} s warm-up; autocannon in one process on the same machine; latency in ms.`,
    '',
    row([
      'class',
      'connections',
      'requests',
      'req/s',
      'p50',
      'p99',
      'errors',
      'timeouts',
      'non-2xx',
      'statuses',
    ]),
    row(Array<string>(10).fill('---')),
    ...classes.map((c) =>
      row([
        c.name,
        c.connections,
        fixed(c.requests),
        fixed(c.perSecond, 1),
        c.p50,
        c.p99,
        c.errors,
        c.timeouts,
        c.unexpected,
        statuses(c.statuses),
      ]),
    ),
    row([
      '**total**',
      total.connections,
      fixed(total.requests),
      fixed(perSecond, 1),
      all.percentile(50),
      all.percentile(99),
      total.errors,
      total.timeouts,
      total.unexpected,
      '',
    ]),
    row([
      `plain Node http, the home page's ${fixed(r.baseline.bytes)} bytes (${r.baseline.seconds} s, same connections)`,
      total.connections,
      '',
      fixed(r.baseline.requestsPerSec),
      r.baseline.p50,
      r.baseline.p99,
      r.baseline.errors,
      '',
      r.baseline.non2xx,
      '',
    ]),
    '',
    `Throughput of the mix: ${fixed(perSecond)} req/s, ${(perSecond / r.baseline.requestsPerSec).toFixed(3)}× the plain server of this run.`,
    `Server CPU: ${fixed(r.serverCpuMs / 1000, 1)} s in ${fixed(r.seconds)} s, ${fixed(r.serverCpuMs / Math.max(1, total.requests), 2)} ms per request.`,
    ...(r.edits
      ? [
          `Edits: **${r.edits.accepted} of ${r.edits.due} accepted**; edit accepted → the anonymous page shows the new text: p50 ${fixed(r.edits.visible.percentile(50))} ms, **p95 ${fixed(r.edits.visible.percentile(95))} ms**, max ${fixed(r.edits.visible.percentile(100))} ms (${r.edits.shown} shown, ${r.edits.neverShown} not within 10 s).`,
        ]
      : []),
    `Page cache while measured: ${['hit', 'stale', 'miss'].map((result) => `${result} ${fixed(r.pageCache[result] ?? 0)}`).join(', ')} (a miss renders for its reader).`,
    ...(r.nodeFlags ? [`Node flags added for this run: \`${r.nodeFlags}\`.`] : []),
    r.warmupErrors > 0 ? `Warm-up: ${r.warmupErrors} errors.` : 'Warm-up: no errors.',
    '',
    `Server process memory (RSS, sampled every second): start ${r.rss.start} MiB, after warm-up ${r.rss.warm} MiB, peak ${r.rss.peak} MiB, end ${r.rss.end} MiB. Its child processes (none since the readings moved into the server, decision 060): peak ${r.rss.childrenPeak} MiB.`,
    `Whole process tree (server and children summed at each sample, from the server's start): peak ${r.rss.tree.peak} MiB (the server ${r.rss.tree.atPeak.server}${r.rss.tree.atPeak.children ? `, children: ${r.rss.tree.atPeak.children}` : ', no child'}), end ${r.rss.tree.end} MiB.`,
    `The server's own high-water mark (VmHWM, from its start, before the first sample too): ${r.rss.highWater} MiB.`,
  ];
  if (r.rss.minutes.length > 1)
    lines.push(`At the end of each minute: ${r.rss.minutes.join(', ')} MiB.`);
  if (r.rss.minuteParts.length > 1)
    lines.push(
      `The same minutes from the server's metrics, V8 heap used / total + external (PGlite's WebAssembly heap, buffers; of which the page cache's bodies): ${r.rss.minuteParts.map((m) => `${m.heapUsed}/${m.heapTotal} + ${m.external} (${m.pageCache})`).join(', ')} MiB.`,
    );
  if (r.rss.settled !== undefined) {
    const ratio = r.rss.end / r.rss.settled;
    lines.push(
      `After the first minute ${r.rss.settled} MiB, at the end ${r.rss.end} MiB: ${ratio.toFixed(3)}× (limit ${r.soakLimit}×) ${ratio <= r.soakLimit ? '✓' : '✗'}`,
    );
  }
  lines.push('', ...r.notes.map((n) => `- ${n}`), '');
  console.log(lines.join('\n'));
}
