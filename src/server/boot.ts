import 'server-only';
import { singleton } from '@/lib/singleton';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { env } from '@/env';
import { startAdminSocket } from '@/server/features/admin';
import { type Db, getDatabase, redactUrl } from '@/server/platform/db/client';
import { probeServer } from '@/server/platform/db/availability';
import { openWhenReachable } from '@/server/platform/db/wait-for-database';
import {
  ensureSandboxWebhook,
  sandboxDeliveries,
  startRefusal,
  syncCatalogue,
  usesSandbox,
} from '@/server/features/billing';
import { startSandboxRunner } from '@/server/services/billing-sandbox/runner';
import { makePrivate, restrictUmask, secureDataDir } from '@/server/platform/db/lock';
import { startScheduler, stopScheduler } from '@/server/features/console';
import { startGiftRunner, stopGiftRunner } from '@/server/features/gift-plans';
import { startCommentDigests, stopCommentDigests } from '@/server/features/comments';
import { applyOrganizationBillingEvent } from '@/server/features/invoice-billing';
import {
  followPostPublications,
  startNewsletterSender,
  stopNewsletterSender,
} from '@/server/features/newsletter';
import { reindexInBackground } from '@/server/services/cms/search-index';
import {
  copyDemoMedia,
  isContentEmpty,
  seedDemoContent,
  seedDemoContracts,
} from '@/server/features/seed';
import { onShutdown, shutdownOnSignals } from '@/server/platform/lifecycle/shutdown';
import { startClusterBus } from '@/server/platform/cluster/bus';
import { oneInstanceAtATime } from '@/server/platform/db/startup-lock';
import { sweepUploadTemps } from '@/server/platform/storage/upload';

/** Any fixed number, distinct from the migrations' (src/server/platform/db/migrate.ts). */
const BILLING_SETUP_LOCK_KEY = 724_002;

/**
 * Runs once when the server process starts (the front server, or the framework's instrumentation
 * hook without it): validates the settings,
 * opens and migrates the database, and, for the embedded database, opens the admin socket
 * the CLI uses while the server holds the data directory. Any failure stops the start.
 */
export function boot(): Promise<void> {
  // Once per process: the front server and the instrumentation hook both call it.
  return singleton('boot', () => start());
}

/**
 * Billing (docs/decisions/008-billing-sandbox.md): the plan catalogue is read from the provider; on
 * the sandbox, the site's webhook endpoint and the background runner are set up as well.
 */
async function startBilling(db: Db): Promise<void> {
  const config = env();
  if (!usesSandbox()) {
    await syncCatalogue(db).catch((error: unknown) => {
      console.warn('[billing] the plan catalogue could not be read from Stripe:', error);
    });
    console.log('[billing] Stripe');
    return;
  }
  await syncCatalogue(db);
  await ensureSandboxWebhook(db);
  startSandboxRunner(db, sandboxDeliveries(db, applyOrganizationBillingEvent));
  console.log(`[billing] sandbox (${config.SITE_URL}/billing-sandbox, no real payments)`);
}

async function start(): Promise<void> {
  try {
    // Features subscribe to the content service before anything can write to it.
    followPostPublications();
    const config = env();
    const refusal = startRefusal(config);
    if (refusal) throw new Error(refusal);
    // Before anything writes: database files, uploads and the secret are the OS user's only.
    restrictUmask();
    if (fs.existsSync(config.DATA_DIR)) secureDataDir(config.DATA_DIR);
    // Uploads a crash or kill cut short left their temporary files: none is in flight yet.
    const swept = await sweepUploadTemps();
    if (swept > 0) console.log(`[media] removed ${swept} unfinished upload file(s)`);
    // A PostgreSQL server not reachable yet is waited for, not a crash loop (wait-for-database.ts).
    const url = config.DATABASE_URL;
    const database = url
      ? await openWhenReachable(getDatabase, {
          location: redactUrl(url),
          probe: () => probeServer(url),
        })
      : await getDatabase();
    console.log(`[db] ${database.kind} database ready (${database.location})`);
    // The first start on an empty embedded database loads the demo corpus (never on a server).
    if (database.kind === 'embedded' && (await isContentEmpty(database.db))) {
      const uploads = path.join(config.DATA_DIR, 'uploads');
      await copyDemoMedia(uploads);
      makePrivate(uploads); // copyFile gives the copies the shipped files' 0644
      const { created } = await seedDemoContent(database.db);
      await seedDemoContracts(database.db);
      console.log(
        `[seed] demo content loaded: ${Object.entries(created)
          .map(([e, n]) => `${e} ${n}`)
          .join(', ')}`,
      );
    }
    if (database.kind === 'embedded') {
      // PGlite runs no autovacuum: refresh the planner's statistics at each start.
      await database.db.execute(sql`ANALYZE`);
      await startAdminSocket(database, config.DATA_DIR);
    }
    // Several instances on one server: each hears of the others' content changes at once.
    if (config.DATABASE_URL) {
      const bus = await startClusterBus(config.DATABASE_URL);
      onShutdown('cluster bus', bus.stop);
    }
    // Rows indexed by an older search fold are re-indexed now, not at the first search.
    reindexInBackground(database.db);
    startScheduler(database.db);
    // Gift mails at their delivery time and a week before a gift ends (claimed, once each).
    startGiftRunner(database.db);
    // Each author's daily digest of new comments (claimed per author and day: once each).
    startCommentDigests(database.db);
    // Every instance sends newsletter letters; the queue's claims keep them from doubling up.
    startNewsletterSender(database.db);
    // Instances starting together: one sets up the billing catalogue and endpoint, then the next.
    await oneInstanceAtATime(config.DATABASE_URL, BILLING_SETUP_LOCK_KEY, () =>
      startBilling(database.db),
    );
    // Run last on shutdown: after the server has let its requests finish (src/server/platform/lifecycle/shutdown.ts).
    onShutdown('database', () => database.close());
    onShutdown('scheduled publishing', stopScheduler);
    onShutdown('gift mails', stopGiftRunner);
    onShutdown('comment digests', stopCommentDigests);
    // Before the database closes: the letter in flight finishes, unstarted claims go back.
    onShutdown('newsletter sender', stopNewsletterSender);
    shutdownOnSignals();
  } catch (error) {
    console.error(
      `\n起動できません (cannot start):\n${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}
