import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildOnce } from './compile-server.mjs';

/** The esbuild service processes this process has started and not yet ended (Linux: /proc). */
function esbuildChildren(): number[] {
  const children = fs
    .readdirSync('/proc/self/task')
    .flatMap((task) =>
      fs.readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/),
    )
    .filter(Boolean)
    .map(Number);
  return children.filter((pid) => {
    try {
      return path.basename(fs.readlinkSync(`/proc/${pid}/exe`)) === 'esbuild';
    } catch {
      return false; // already gone
    }
  });
}

describe('compiling the server', () => {
  it('leaves no esbuild process running beside the server that compiled itself', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-server-'));
    try {
      const entry = path.join(dir, 'entry.ts');
      fs.writeFileSync(entry, 'export const answer: number = 42;\n');
      // The test runner may hold a service of its own: only one this build started counts.
      const before = esbuildChildren();
      const result = await buildOnce(esbuild, { entryPoints: [entry], write: false });
      expect(result.outputFiles?.[0]?.text).toContain('42');
      // launch.mjs compiles in the server's own process: a service left running stays its
      // child for as long as the server runs (about 100 MiB, docs/benchmarks.md, "Memory").
      // esbuild.stop() sends SIGTERM and returns: on a loaded machine the service takes a few
      // milliseconds to exit, so the test waits (up to 5 s) for it to go, as the server would.
      const started = () => esbuildChildren().filter((pid) => !before.includes(pid));
      const deadline = Date.now() + 5_000;
      while (started().length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(started()).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
