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

/** "where: function" for a profile's frame, in source terms where a source map tells. */
function frameName(frame: ProfileNode['callFrame'], root: string): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const mapped = mapOf(frame.url);
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
  const file = frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url;
  return `${path.relative(root, file).replace(/^.*?node_modules\//, 'node_modules/')}:${frame.lineNumber + 1} ${name}`;
}

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
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const names = new Map<number, string>();
    const nameOf = (id: number) => {
      if (!names.has(id)) names.set(id, frameName(byId.get(id)!.callFrame, root));
      return names.get(id)!;
    };
    const parent = new Map<number, number>();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parent.set(child, node.id);
    let at = profile.startTime; // µs
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i + 1] ?? 0; // the time until the next sample
      at += profile.timeDeltas[i] ?? 0;
      const ms = (at - profile.startTime) / 1000;
      if (ms < window.fromMs || ms > window.toMs) return;
      const key = nameOf(id);
      self.set(key, (self.get(key) ?? 0) + delta / 1000);
      // Inclusive: every function of ours on the sample's stack, once per sample.
      const onStack = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const name = nameOf(at);
        if (name.startsWith('src/')) onStack.add(name);
      }
      for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + delta / 1000);
      total += delta / 1000;
    });
  }
  const ranked = [...self].sort((a, b) => b[1] - a[1]);
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
  const busy = total - ranked.filter(([k]) => idle.has(k)).reduce((s, [, ms]) => s + ms, 0);
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

${table(ranked.filter(([k]) => !idle.has(k)))}

The site's own (src/):

${table(ours)}

The site's own with what they call (inclusive time; a caller and its callee both count):

${table(
  [...inclusive].sort((a, b) => b[1] - a[1]),
  'inclusive ms',
)}
`;
}
