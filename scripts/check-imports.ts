/**
 * The layering checks that need the whole import graph, which ESLint (one file at a time)
 * cannot see; `npm run lint` runs them (docs/decisions/014-layers.md):
 * - no import circles in src, bench and scripts;
 * - client code (every module that starts with the 'use client' directive, read as Next.js
 *   reads it, and everything it imports, directly or not) reaches nothing in src/server;
 * - a file named *.client.ts(x) is client code: the name tells the reader so, and must not lie;
 * - src/server's folders import each other in no loop, each tier imports only what it may, and
 *   a feature is reached from the rest of src/server through its index.ts alone
 *   (docs/decisions/045-server-tiers.md; the rules are in scripts/lib/folder-graph.ts);
 * - only client code imports next/link: the rest links with src/components/layout/site-link.tsx.
 */
import { readFileSync } from 'node:fs';
import madge from 'madge';
import { isClientSource } from './lib/client-boundary.mjs';
import {
  deepImports,
  describeLoop,
  folderArrows,
  folderLoops,
  tierBreaches,
} from './lib/folder-graph';

const result = await madge(['src', 'bench', 'scripts'], {
  baseDir: '.',
  fileExtensions: ['ts', 'tsx'],
  tsConfig: 'tsconfig.json',
});
const problems: string[] = [];

for (const circle of result.circular()) {
  problems.push(`import circle: ${[...circle, circle[0]].join(' → ')}`);
}

const graph = result.obj();
const isClient = (file: string) =>
  /\.tsx?$/.test(file) && isClientSource(readFileSync(file, 'utf8'), file);
const clients = new Set(Object.keys(graph).filter(isClient));
for (const file of Object.keys(graph)) {
  if (/\.client\.tsx?$/.test(file) && !clients.has(file)) {
    problems.push(`named a client file but does not start with 'use client': ${file}`);
  }
}
const roots = [...clients].filter((file) => file.startsWith('src/'));
// Breadth-first from every client file, remembering how each file was reached.
const via = new Map<string, string | null>(roots.map((file) => [file, null]));
const queue = [...roots];
for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
  for (const next of graph[file] ?? []) {
    if (via.has(next)) continue;
    via.set(next, file);
    queue.push(next);
  }
}
for (const [file, parent] of via) {
  // Only where client code steps into src/server, not every server module behind that step.
  if (!file.startsWith('src/server/') || parent?.startsWith('src/server/')) continue;
  const chain = [file];
  for (let from = via.get(file); from; from = via.get(from)) chain.unshift(from);
  problems.push(`client code reaches src/server: ${chain.join(' → ')}`);
}

// A server component links with the site's Link (src/components/layout/site-link.tsx,
// docs/decisions/065-links-as-plain-anchors.md): next/link is a client component per link.
for (const file of Object.keys(graph)) {
  if (!file.startsWith('src/') || clients.has(file) || !/\.tsx?$/.test(file)) continue;
  if (/from 'next\/link'/.test(readFileSync(file, 'utf8'))) {
    problems.push(`next/link in a server component (use Link of site-link.tsx): ${file}`);
  }
}

const arrows = folderArrows(graph);
const loops = folderLoops(arrows);
for (const loop of loops) problems.push(describeLoop(loop));
for (const { from, to, example } of tierBreaches(arrows)) {
  problems.push(`tier breach: ${from} → ${to} (${example.file} imports ${example.imports})`);
}
for (const { file, imports } of deepImports(graph)) {
  problems.push(`deep import into another feature: ${file} imports ${imports}`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
const folders = new Set(arrows.flatMap(({ from, to }) => [from, to]));
console.log(
  `imports: no circles, ${roots.length} client files reach nothing in src/server, ` +
    `${folders.size} folders of src/server in no loop`,
);
