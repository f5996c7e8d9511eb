import 'server-only';
import { env } from '@/env';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/db/client';
import { advanceClocklessSubscriptions } from './cycle/clock';
import { nowSeconds } from './object-store';
import { deliverPendingEvents } from './webhooks';
import { onSandboxActivity } from './activity';
import { WEBHOOK_PATH } from './setup';
import { handleBillingWebhook } from '../webhook';

/**
 * What Stripe does on its own time, done for the sandbox in the server process: it moves
 * subscriptions without a test clock on with the real time and delivers pending webhook
 * events. Runs every second and at once after a change (activity.ts). Deliveries to
 * this site's own webhook URL are handed to the handler in process (the same signed request
 * the network would carry), so they arrive whatever address the server listens on.
 */

const INTERVAL_MS = 1000;

type Runner = {
  timer: NodeJS.Timeout | null;
  unsubscribe: (() => void) | null;
  running: boolean;
  again: boolean;
};
const runner = singleton('billing-sandbox-runner', (): Runner => ({
  timer: null,
  unsubscribe: null,
  running: false,
  again: false,
}));

function deliveryFetch(db: Db): typeof fetch {
  const own = new URL(WEBHOOK_PATH, env().SITE_URL).href;
  return (input, init) => {
    const request = new Request(input, init);
    return request.url === own ? handleBillingWebhook(request, db) : fetch(request);
  };
}

async function runOnce(db: Db): Promise<void> {
  if (runner.running) {
    runner.again = true;
    return;
  }
  runner.running = true;
  try {
    do {
      runner.again = false;
      await advanceClocklessSubscriptions(db, nowSeconds());
      await deliverPendingEvents(db, { fetch: deliveryFetch(db) });
    } while (runner.again);
  } catch (error) {
    console.error('[billing-sandbox] background run failed:', error);
  } finally {
    runner.running = false;
  }
}

export function startSandboxRunner(db: Db): void {
  if (runner.timer) return;
  runner.timer = setInterval(() => void runOnce(db), INTERVAL_MS);
  runner.timer.unref();
  runner.unsubscribe = onSandboxActivity(() => setImmediate(() => void runOnce(db)));
}

export function stopSandboxRunner(): void {
  if (runner.timer) clearInterval(runner.timer);
  runner.unsubscribe?.();
  runner.timer = null;
  runner.unsubscribe = null;
}
