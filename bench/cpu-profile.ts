/**
 * Where a server's CPU time went, from the `.cpuprofile` files `node --cpu-prof` writes: self
 * time per function, the build's minified chunks mapped back to their sources through the
 * source maps `next build` writes beside them, and the site's own modules (src/) apart from the
 * framework and the libraries.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
};
type Profile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

const maps = new Map<string, { map: SourceMap; dir: string } | null>();
function mapOf(url: string): { map: SourceMap; dir: string } | null {
  if (!maps.has(url)) {
    let map: { map: SourceMap; dir: string } | null = null;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      const sourceMap = new SourceMap(
        JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<
          typeof SourceMap
        >[0],
      );
      map = { map: sourceMap, dir: path.dirname(file) };
    } catch {
      /* no map: a file of node_modules loaded as it is, or node's own */
    }
    maps.set(url, map);
  }
  return maps.get(url)!;
}

/**
 * A bare app's copy of the framework (bench/first-load-js.ts: hard links of the site's
 * node_modules in a directory removed when it stops) read as the site's, whose maps remain.
 */
const BARE_APP_MODULES = /^(?:file:\/\/)?\/.*?\/axis-bare-app-[^/]+\/node_modules\//;

/** "where: function" for a profile's frame, in source terms where a source map tells. */
function frameName(frame: ProfileNode['callFrame'], root: string): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const url = frame.url.replace(BARE_APP_MODULES, `${path.join(root, 'node_modules')}/`);
  const mapped = mapOf(url);
  const entry = mapped?.map.findEntry(frame.lineNumber, frame.columnNumber);
  if (mapped && entry && 'originalSource' in entry) {
    // Sources are relative to the map (Next.js's own dist maps name its src/ too).
    const original = decodeURIComponent(entry.originalSource);
    const source = /^[a-z]+:/.test(original)
      ? original.replace(/^turbopack:\/\/\/\[project\]\//, '')
      : path.relative(root, path.resolve(mapped.dir, original));
    const originalName = (entry as { name?: string }).name;
    return `${source.replace(/^.*?node_modules\//, 'node_modules/')}:${entry.originalLine + 1} ${originalName ?? name}`;
  }
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  return `${path.relative(root, file).replace(/^.*?node_modules\//, 'node_modules/')}:${frame.lineNumber + 1} ${name}`;
}

/**
 * The samples of the profiles in `dir` within a window: `fromMs`…`toMs` after the profile
 * started (the process's start), or its last `lastMs` (a server stopped as soon as its load
 * ended, whose start the caller did not see: the bare app is built first). Each sample is
 * given as its node, its profile's tree and its duration in ms.
 */
type Window = { fromMs: number; toMs: number } | { lastMs: number };
function eachSample(
  dir: string,
  window: Window,
  visit: (
    id: number,
    ms: number,
    tree: { byId: Map<number, ProfileNode>; parent: Map<number, number> },
  ) => void,
): void {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parent.set(child, node.id);
    const endMs = (profile.endTime - profile.startTime) / 1000;
    const [fromMs, toMs] =
      'lastMs' in window ? [endMs - window.lastMs, endMs] : [window.fromMs, window.toMs];
    let at = profile.startTime; // µs
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i + 1] ?? 0; // the time until the next sample
      at += profile.timeDeltas[i] ?? 0;
      const ms = (at - profile.startTime) / 1000;
      if (ms >= fromMs && ms <= toMs) visit(id, delta / 1000, { byId, parent });
    });
  }
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

/**
 * The top self-time functions of the profile in `dir`, overall and the site's own (src/),
 * counting only the samples between `fromMs` and `toMs` after the profile started (the load,
 * not the server's start).
 */
export function summariseProfile(
  dir: string,
  root: string,
  window: { fromMs: number; toMs: number },
  top = 15,
): string {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  const names = new Map<ProfileNode, string>();
  eachSample(dir, window, (id, ms, { byId, parent }) => {
    const nameOf = (node: ProfileNode) => {
      if (!names.has(node)) names.set(node, frameName(node.callFrame, root));
      return names.get(node)!;
    };
    const key = nameOf(byId.get(id)!);
    self.set(key, (self.get(key) ?? 0) + ms);
    // Inclusive: every function of ours on the sample's stack, once per sample.
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = nameOf(byId.get(at)!);
      if (name.startsWith('src/')) onStack.add(name);
    }
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    total += ms;
  });
  const ranked = [...self].sort((a, b) => b[1] - a[1]);
  const busy = total - ranked.filter(([k]) => IDLE.has(k)).reduce((s, [, ms]) => s + ms, 0);
  const table = (rows: [string, number][], column = 'self ms') =>
    `| function | ${column} | share of busy time |\n| --- | --- | --- |\n${rows
      .slice(0, top)
      .map(([k, ms]) => `| ${k} | ${Math.round(ms)} | ${((ms / busy) * 100).toFixed(1)} % |`)
      .join('\n')}`;
  const ours = ranked.filter(([k]) => k.startsWith('src/'));
  const oursMs = ours.reduce((s, [, ms]) => s + ms, 0);
  const gc = self.get('(garbage collector)') ?? 0;
  return `Busy ${Math.round(busy)} ms (garbage collection ${Math.round(gc)} ms besides); the site's own modules (src/) ${Math.round(oursMs)} ms self time, ${((oursMs / busy) * 100).toFixed(1)} %.

All functions:

${table(ranked.filter(([k]) => !IDLE.has(k)))}

The site's own (src/):

${table(ours)}

The site's own with what they call (inclusive time; a caller and its callee both count):

${table(
  [...inclusive].sort((a, b) => b[1] - a[1]),
  'inclusive ms',
)}
`;
}

/** Where a function's self time goes in the per-request comparison (familyTable), first match. */
const FAMILIES: [family: string, test: RegExp][] = [
  ['garbage collection', /^\(garbage collector\)/],
  ["React's RSC renderer (Flight server)", /react-server-dom-[a-z]+-server/],
  [
    'React reading the RSC payload back for the HTML (Flight client)',
    /react-server-dom-[a-z]+-client/,
  ],
  ["React's HTML renderer (Fizz)", /react-dom-server|react-dom\/cjs/],
  ['React (elements, hooks)', /dist\/compiled\/react\/|node_modules\/react\//],
  ['next/link', /next\/.*client\/app-dir\/link/],
  ['Next.js metadata (head tags)', /next\/.*lib\/metadata\//],
  [
    'Next.js (routing, proxy adapter, app render, streams)',
    /node_modules\/next\/|^webpack:\/\/next\/|\[turbopack\]/,
  ],
  [
    'embedded PostgreSQL (PGlite, its protocol, WebAssembly)',
    /pglite|pg-protocol|async-mutex|wasm:|^(?:js-to-wasm|wasm-to-js)/,
  ],
  ['drizzle (building queries, reading rows)', /drizzle-orm/],
  ['better-auth (the session)', /better-auth|better-call/],
  ['zod', /\/zod\//],
  ["the site's own code (src/)", /^src\//],
  ['Node.js async context (async_hooks)', /async_hooks/],
  ['other libraries', /node_modules\//],
  ['Node.js (http, streams, url, buffers, crypto) and native', /./],
];
const familyOf = (name: string) => FAMILIES.find(([, test]) => test.test(name))![0];

/**
 * Self time per request by family (the framework's renderers, the database, the site's own
 * code…) for several profiled loads side by side, with CPU per request: the busy time plus
 * garbage collection over the requests served. The profiler samples wall time, so on a machine
 * shared with other work a thread waiting for a core counts as busy: compare columns of one run.
 */
export function familyTable(
  root: string,
  columns: { label: string; dir: string; window: Window; requests: number }[],
): string {
  const perColumn = columns.map(({ dir, window, requests }) => {
    const families = new Map<string, number>();
    const names = new Map<ProfileNode, string>();
    eachSample(dir, window, (id, ms, { byId }) => {
      const node = byId.get(id)!;
      // The generated file's path beside the source's: a library's map may name its sources
      // relative to where it was built (drizzle's `src/…`).
      if (!names.has(node))
        names.set(node, `${frameName(node.callFrame, root)} ${node.callFrame.url}`);
      const name = names.get(node)!;
      if (name.startsWith('(idle)') || name.startsWith('(program)')) return;
      const family = familyOf(name);
      families.set(family, (families.get(family) ?? 0) + ms / requests);
    });
    return families;
  });
  const total = (families: Map<string, number>) =>
    [...families.values()].reduce((s, v) => s + v, 0);
  const ms = (v: number | undefined) => (v ?? 0).toFixed(2);
  const order = FAMILIES.map(([family]) => family).filter((family) =>
    perColumn.some((families) => (families.get(family) ?? 0) >= 0.005),
  );
  return `| ms per request | ${columns.map((c) => c.label).join(' | ')} |
| --- | ${columns.map(() => '---').join(' | ')} |
| **CPU per request (busy + garbage collection)** | ${perColumn.map((f) => `**${ms(total(f))}**`).join(' | ')} |
${order.map((family) => `| ${family} | ${perColumn.map((f) => ms(f.get(family))).join(' | ')} |`).join('\n')}
| requests in the window | ${columns.map((c) => c.requests).join(' | ')} |`;
}

/**
 * The functions of one family (familyTable's) with the most self time per request, for a
 * closer look at a profile kept with BENCH_PROFILE_DIR (`npx tsx bench/profile-family.ts`).
 */
export function familyFunctions(
  root: string,
  column: { dir: string; window: Window; requests: number },
  family: string,
  top = 20,
): [name: string, msPerRequest: number][] {
  const self = new Map<string, number>();
  const names = new Map<ProfileNode, string>();
  eachSample(column.dir, column.window, (id, ms, { byId }) => {
    const node = byId.get(id)!;
    if (!names.has(node))
      names.set(node, `${frameName(node.callFrame, root)} ${node.callFrame.url}`);
    const name = names.get(node)!;
    if (familyOf(name) !== family) return;
    const short = name.slice(0, name.lastIndexOf(' '));
    self.set(short, (self.get(short) ?? 0) + ms / column.requests);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
}

/**
 * Inclusive time per request of the frames whose "where: function" contains each pattern: a
 * sample counts once for a pattern when any frame of its stack matches (a part of the framework,
 * say `lib/metadata/`, with all it calls).
 */
export function inclusiveTimes(
  root: string,
  column: { dir: string; window: Window; requests: number },
  patterns: string[],
): [pattern: string, msPerRequest: number][] {
  const totals = new Map(patterns.map((pattern) => [pattern, 0]));
  const names = new Map<ProfileNode, string>();
  eachSample(column.dir, column.window, (id, ms, { byId, parent }) => {
    const matched = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      if (!names.has(node))
        names.set(node, `${frameName(node.callFrame, root)} ${node.callFrame.url}`);
      for (const pattern of patterns) if (names.get(node)!.includes(pattern)) matched.add(pattern);
    }
    for (const pattern of matched) totals.set(pattern, totals.get(pattern)! + ms / column.requests);
  });
  return [...totals];
}

/** One load of the profiles bench:render keeps: its label and what the functions above read. */
export type KeptColumn = {
  label: string;
  dir: string;
  window: Window;
  requests: number;
};

/**
 * The four loads whose profiles `BENCH_PROFILE=1 BENCH_PROFILE_DIR=<dir> npm run bench:render`
 * kept (with their windows in windows.json), each site load beside the bare page with its body.
 */
export function keptProfiles(dir: string): KeptColumn[] {
  type Load = { window: Window; requestsPerSec: number };
  const windows = JSON.parse(fs.readFileSync(path.join(dir, 'windows.json'), 'utf8')) as Record<
    'visitor' | 'staff' | 'bareVisitor' | 'bareStaff',
    Load
  > & { seconds: number };
  return (
    [
      ['post page, staff member', windows.staff, 'profile'],
      ["bare page, the staff member's body", windows.bareStaff, 'profile-bare-staff'],
      ['post page, unknown cookie', windows.visitor, 'profile'],
      ["bare page, the visitor's body", windows.bareVisitor, 'profile-bare'],
    ] as const
  ).map(([label, load, sub]) => ({
    label,
    dir: path.join(dir, sub),
    window: load.window,
    requests: load.requestsPerSec * windows.seconds,
  }));
}
