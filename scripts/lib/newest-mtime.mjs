/**
 * The newest modification time under a path (the path itself when a file; 0 when missing):
 * how the launcher tells a compiled server (compile-server.mjs) and a Next.js build
 * (build-freshness.ts) from their sources. Plain JavaScript, so that compile-server.mjs runs on a
 * fresh clone before anything is compiled.
 */
import fs from 'node:fs';
import path from 'node:path';

/** @param {string} target */
export function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}
