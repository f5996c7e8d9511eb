/**
 * What a build was made from, by content: a sha256 per input (a file, or every file under a
 * directory, with its path). A build records them in its own directory and a start compares
 * them, so a fresh checkout or a copied tree (new modification times, same bytes) keeps its
 * build while any changed, added or deleted file does not. Used for the compiled server
 * (compile-server.mjs) and the Next.js build (build-freshness.ts). Plain JavaScript, so that
 * compile-server.mjs runs on a fresh clone before anything is compiled.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** One sha256 per input path (relative to root); a missing input hashes as empty. */
export function hashInputs(root, inputs) {
  return Object.fromEntries(
    inputs.map((input) => {
      const hash = createHash('sha256');
      addToHash(hash, root, input);
      return [input, hash.digest('hex')];
    }),
  );
}

function addToHash(hash, root, relative) {
  let stat;
  try {
    stat = fs.statSync(path.join(root, relative));
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    // Sorted: the order readdir returns depends on the file system.
    for (const entry of fs.readdirSync(path.join(root, relative)).sort())
      addToHash(hash, root, path.posix.join(relative, entry));
    return;
  }
  const bytes = fs.readFileSync(path.join(root, relative));
  // The path and length first: moving or splitting a file changes the hash too.
  hash.update(`${relative}\0${bytes.length}\0`);
  hash.update(bytes);
}

export function recordInputs(file, hashes) {
  fs.writeFileSync(file, `${JSON.stringify(hashes, null, 2)}\n`);
}

/** The hashes a build recorded, or null when there is no record (no build, or an older one). */
export function readInputRecord(file) {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    return record && typeof record === 'object' ? record : null;
  } catch {
    return null;
  }
}

/** The first input whose content differs from the record, or null when none does. */
export function changedInput(record, hashes) {
  return Object.keys(hashes).find((input) => record[input] !== hashes[input]) ?? null;
}
