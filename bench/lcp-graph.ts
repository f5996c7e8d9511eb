/**
 * What Lighthouse's simulated LCP counted in one run: each request and main-thread task of the
 * estimate with its simulated start and end (ms), the last to end being the LCP. Give it the
 * trace and DevTools log that `lighthouse <url> --save-assets` writes beside its report:
 *
 *   npx tsx bench/lcp-graph.ts lh-0.trace.json lh-0.devtoolslog.json http://127.0.0.1:3000/
 *
 * A page drawn after its async scripts arrived shows them here, ending at the LCP
 * (docs/benchmarks.md, "What Lighthouse's LCP counts on `/`").
 */
import fs from 'node:fs';
import { defaultSettings } from 'lighthouse/core/config/constants.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';

type GraphNode =
  | { type: 'network'; request: { resourceType: string; priority: string; url: string } }
  | { type: 'cpu'; duration: number; childEvents: { name: string; dur?: number }[] };
type Estimate = {
  timeInMs: number;
  nodeTimings: Map<GraphNode, { startTime: number; endTime: number }>;
};

const [traceFile, logFile, url] = process.argv.slice(2);
if (!traceFile || !logFile || !url) {
  console.error('usage: tsx bench/lcp-graph.ts <trace.json> <devtoolslog.json> <url>');
  process.exit(2);
}
const data = {
  trace: JSON.parse(fs.readFileSync(traceFile, 'utf8')) as unknown,
  devtoolsLog: JSON.parse(fs.readFileSync(logFile, 'utf8')) as unknown,
  gatherContext: { gatherMode: 'navigation' },
  settings: defaultSettings as unknown,
  URL: { requestedUrl: url, mainDocumentUrl: url, finalDisplayedUrl: url },
  SourceMaps: [],
  simulator: null,
};
const request = LanternLargestContentfulPaint.request as unknown as (
  data: unknown,
  context: unknown,
) => Promise<{ timing: number; optimisticEstimate: Estimate; pessimisticEstimate: Estimate }>;
const result = await request(data, { computedCache: new Map() });
console.log(`LCP ${Math.round(result.timing)} ms`);
for (const [label, estimate] of [
  ['optimistic', result.optimisticEstimate],
  ['pessimistic', result.pessimisticEstimate],
] as const) {
  console.log(`\n${label} (${Math.round(estimate.timeInMs)} ms)`);
  const rows = [...estimate.nodeTimings.entries()].sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [node, time] of rows) {
    const what =
      node.type === 'network'
        ? `${node.request.resourceType} ${node.request.priority} ${node.request.url}`
        : `task ${(node.duration / 1000).toFixed(1)} ms unthrottled: ${node.childEvents
            .filter((event) => (event.dur ?? 0) > 1000)
            .map((event) => event.name)
            .slice(0, 4)
            .join(', ')}`;
    console.log(`${Math.round(time.startTime)}–${Math.round(time.endTime)}  ${what}`);
  }
}
