/**
 * `npm start`: validates the settings, builds when there is no build or it is stale, then
 * serves the site on PORT. The server opens and migrates the database as it starts
 * (src/instrumentation.ts), so nothing else needs to be installed or started.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { env } from '@/env';
import { loadBuildSettings, NEXT_BIN, runNextBuild, staleBuildReason } from './lib/build-freshness';

const root = path.resolve(import.meta.dirname, '..');
const settings = loadBuildSettings();
const { PORT, SITE_URL } = env();

const reason = staleBuildReason(root, settings);
if (reason) {
  console.log(`[start] building the site (${reason}) …`);
  const status = runNextBuild(root, settings);
  if (status !== 0) {
    console.error('[start] the build failed; see the output above.');
    process.exit(status);
  }
}

console.log(`[start] serving ${SITE_URL} on port ${PORT}`);
const server = spawn(process.execPath, [path.join(root, NEXT_BIN), 'start', '-p', String(PORT)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
