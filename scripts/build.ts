/**
 * `npm run build`: compiles the server's entry points to JavaScript (scripts/compile-server.mjs,
 * dist/server), then runs next build, recording the settings baked into it (lib/build-freshness).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadBuildSettings, runNextBuild } from './lib/build-freshness';

const root = path.resolve(import.meta.dirname, '..');
const settings = loadBuildSettings();
const compiled = spawnSync(process.execPath, [path.join(root, 'scripts/compile-server.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
process.exit(await runNextBuild(root, settings));
