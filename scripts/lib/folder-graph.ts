/**
 * The folder-level import rules `scripts/check-imports.ts` applies to `src/server`
 * (docs/decisions/045-server-tiers.md): pure functions over a file graph (file → files it
 * imports, as madge gives it), so they are tested on a graph of a few names.
 */

/** file → the files it imports. */
export type FileGraph = Record<string, readonly string[]>;

/** One arrow between folders, with the first import that draws it, to show the reader. */
export interface FolderArrow {
  from: string;
  to: string;
  example: { file: string; imports: string };
}

const SERVER = 'src/server/';
/** Tiers hold folders; a folder outside a tier is its own unit (as before the tiers). */
export const TIERS = ['platform', 'services', 'features'] as const;
const TEST_FILE = /\.test\.tsx?$/;

/**
 * The folder a file of src/server belongs to: `features/billing` under a tier, `billing`
 * outside one, nothing for a file directly in src/server (boot.ts composes every folder and
 * is imported by none) or in a tier's own root.
 */
export function serverFolder(file: string): string | null {
  if (!file.startsWith(SERVER)) return null;
  const [first, second, ...rest] = file.slice(SERVER.length).split('/');
  if (first === undefined || second === undefined) return null;
  if ((TIERS as readonly string[]).includes(first)) {
    return rest.length === 0 ? null : `${first}/${second}`;
  }
  return first;
}

/** The arrows between src/server folders, tests left out (a test may reach anywhere). */
export function folderArrows(graph: FileGraph): FolderArrow[] {
  const arrows = new Map<string, FolderArrow>();
  for (const [file, imports] of Object.entries(graph).sort()) {
    if (TEST_FILE.test(file)) continue;
    const from = serverFolder(file);
    if (!from) continue;
    for (const imported of imports) {
      const to = serverFolder(imported);
      if (!to || to === from) continue;
      const key = `${from}\n${to}`;
      if (!arrows.has(key)) arrows.set(key, { from, to, example: { file, imports: imported } });
    }
  }
  return [...arrows.values()];
}

/**
 * The loops: groups of two or more folders that each reach all the others (strongly
 * connected components, Tarjan's algorithm), largest first, each with the arrows inside it.
 */
export function folderLoops(arrows: readonly FolderArrow[]): FolderArrow[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of arrows) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    onStack.add(folder);
    for (const to of next.get(folder)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      group.push(top);
      if (top === folder) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of [...next.keys()].sort()) if (!index.has(folder)) visit(folder);
  return groups
    .sort((a, b) => b.length - a.length || a.join().localeCompare(b.join()))
    .map((group) => arrows.filter(({ from, to }) => group.includes(from) && group.includes(to)));
}

/**
 * Imports from src/server that reach into another feature past its public entry: a feature
 * (`src/server/features/<name>/`) is used from another folder through its `index.ts` alone,
 * so what it keeps to itself can change without a search through the tree. Tests, and the
 * routes and components outside src/server, are left out.
 */
export function deepImports(graph: FileGraph): Array<{ file: string; imports: string }> {
  const found: Array<{ file: string; imports: string }> = [];
  for (const [file, imports] of Object.entries(graph).sort()) {
    if (TEST_FILE.test(file) || !file.startsWith(SERVER)) continue;
    const from = serverFolder(file);
    for (const imported of imports) {
      const to = serverFolder(imported);
      if (!to?.startsWith('features/') || to === from) continue;
      if (imported !== `${SERVER}${to}/index.ts`) found.push({ file, imports: imported });
    }
  }
  return found;
}

/** What each tier may import besides itself: nothing above it, and services only platform. */
const MAY_IMPORT: Record<(typeof TIERS)[number], readonly string[]> = {
  platform: ['platform'],
  services: ['platform'],
  features: ['platform', 'services', 'features'],
};

/**
 * Arrows against the tiers: platform imports only platform, a service only platform (one
 * service does not lean on another), a feature anything. Folders outside a tier are not judged.
 */
export function tierBreaches(arrows: readonly FolderArrow[]): FolderArrow[] {
  const tier = (folder: string) => folder.split('/')[0] as (typeof TIERS)[number];
  return arrows.filter(({ from, to }) => {
    if (!from.includes('/') || !to.includes('/')) return false;
    return !MAY_IMPORT[tier(from)].includes(tier(to));
  });
}

/** A loop as the check prints it: its folders, then one example import per arrow. */
export function describeLoop(loop: readonly FolderArrow[]): string {
  const folders = [...new Set(loop.map(({ from }) => from))].sort();
  const lines = loop.map(
    ({ from, to, example }) => `  ${from} → ${to} (${example.file} imports ${example.imports})`,
  );
  return [`folder loop of ${folders.length}: ${folders.join(', ')}`, ...lines].join('\n');
}
