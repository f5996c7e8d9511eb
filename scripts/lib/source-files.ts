import fs from 'node:fs';
import path from 'node:path';

/** The repository's root (this file is scripts/lib/source-files.ts). */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What tools write inside the source folders (a bench app's build, Playwright's reports). */
const GENERATED = new Set(['node_modules', '.next', 'test-results', 'playwright-report']);

/**
 * The files under the given folders (relative to the repository) whose names match, as paths
 * relative to the repository, for the checks that read the whole tree.
 */
export function sourceFiles(dirs: readonly string[], name: RegExp): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      if (GENERATED.has(entry.name)) continue;
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && name.test(entry.name)) found.push(file);
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(repoRoot, dir))) walk(dir);
  return found;
}
