import 'server-only';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import { advanceClocklessSubscriptions } from './cycle/clock';
import { expireKonbiniPayments } from './cycle/konbini';
import { nowSeconds } from './object-store';
import { deliverPendingEvents } from './webhooks';
import { onSandboxActivity } from './activity';

/**
 * What Stripe does on its own time, done for the sandbox in the server process: it moves
 * subscriptions without a test clock on with the real time, expires konbini vouchers past
 * their deadline and delivers pending webhook events. Runs every second and at once after a
 * change (activity.ts). Deliveries go through the `fetch` the site passes in, which hands those
 * to its own webhook URL to the handler in process (src/server/features/billing/webhook.ts):
 * the sandbox knows nothing of the site.
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

async function runOnce(db: Db, deliver: typeof fetch): Promise<void> {
  if (runner.running) {
    runner.again = true;
    return;
  }
  runner.running = true;
  try {
    do {
      runner.again = false;
      await advanceClocklessSubscriptions(db, nowSeconds());
      await expireKonbiniPayments(db, nowSeconds());
      await deliverPendingEvents(db, { fetch: deliver });
    } while (runner.again);
  } catch (error) {
    console.error('[billing-sandbox] background run failed:', error);
  } finally {
    runner.running = false;
  }
}

export function startSandboxRunner(db: Db, deliver: typeof fetch): void {
  if (runner.timer) return;
  runner.timer = setInterval(() => void runOnce(db, deliver), INTERVAL_MS);
  runner.timer.unref();
  runner.unsubscribe = onSandboxActivity(() => setImmediate(() => void runOnce(db, deliver)));
}

export function stopSandboxRunner(): void {
  if (runner.timer) clearInterval(runner.timer);
  runner.unsubscribe?.();
  runner.timer = null;
  runner.unsubscribe = null;
}
