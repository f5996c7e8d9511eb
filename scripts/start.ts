/**
 * `npm start`: validates the settings, refuses a data directory another process holds, builds
 * when there is no build or it is stale (in a development checkout; a production install
 * refuses instead: lib/production-install.mjs), then serves the site on PORT
 * (src/server/features/front/server.ts: Next.js behind a plain Node server).
 * The server opens and migrates the database as it starts (src/instrumentation.ts), so nothing
 * else needs to be installed or started. Compiled to dist/server/start.js and run by
 * scripts/launch.mjs under `--conditions=react-server` (see scripts/compile-server.mjs).
 */
import { env } from '@/env';
import { startRefusal } from '@/server/features/billing/start-check';
import { reserveDataDirLock } from '@/server/platform/db/lock';
import { loadBuildSettings, runNextBuild, staleBuildReason } from './lib/build-freshness';
import { productionInstallReason, productionRefusal } from './lib/production-install.mjs';

// npm runs scripts in the project's root (this file runs compiled, from dist/server).
const root = process.cwd();
const settings = loadBuildSettings();
const { PORT, SITE_URL, DATABASE_URL, DATA_DIR } = env();

// The lock first: a second start on a running server's data directory must not rebuild the
// `.next` that server is serving. Held through the build and handed to the server's database.
if (!DATABASE_URL) {
  try {
    reserveDataDirLock(DATA_DIR);
  } catch (error) {
    // DataDirLockedError says who holds it, in Japanese and English.
    console.error(`\n起動できません (cannot start):\n${(error as Error).message}\n`);
    process.exit(1);
  }
}

const refusal = startRefusal(env());
if (refusal) {
  console.error(`\n起動できません (cannot start):\n${refusal}\n`);
  process.exit(1);
}

const production = productionInstallReason(root);
const reason = staleBuildReason(root, settings);
if (reason && production) {
  console.error(productionRefusal('.next', reason, production));
  process.exit(1);
}
if (reason) {
  console.log(`[start] development checkout: building the site (${reason}) …`);
  const status = await runNextBuild(root, settings);
  if (status !== 0) {
    console.error('[start] the build failed; see the output above.');
    process.exit(status);
  }
} else {
  const checkout = production ? `production install (${production})` : 'development checkout';
  console.log(`[start] ${checkout}: the build in .next matches the sources and settings`);
}

// What `next start` sets before loading the framework.
Object.assign(process.env, { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' });
// From here every log line is JSON with its request id (src/server/platform/logging), unless LOG_FORMAT=text.
const { startLogging } = await import('@/server/platform/logging/logger');
startLogging(env());
const { serveSite } = await import('@/server/features/front/server');
await serveSite({ dir: root, port: PORT });
console.log(`[start] serving ${SITE_URL} on port ${PORT}`);
