import 'server-only';
import { singleton } from '@/lib/singleton';

/**
 * Graceful shutdown (SIGTERM from an orchestrator, Ctrl+C): the parts of the process register
 * what they must do to stop, and the steps run once, last registered first (the HTTP server
 * stops taking requests and lets those in flight finish before the database it needs closes).
 * A step that fails is logged and the rest still run; if the whole does not end within
 * SHUTDOWN_TIMEOUT_MS the process exits anyway, with status 1, so a stuck request can never keep
 * a deploy waiting.
 */

/** How long requests in flight get to finish once shutdown starts. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** The bound on the whole shutdown: the grace period plus time to close the rest. */
export const SHUTDOWN_TIMEOUT_MS = SHUTDOWN_GRACE_MS + 5_000;

type Step = { name: string; run: () => Promise<void> | void };

const state = singleton('shutdown', () => ({
  steps: [] as Step[],
  started: null as Promise<void> | null,
  signals: false,
}));

export function onShutdown(name: string, run: Step['run']): void {
  state.steps.push({ name, run });
}

export function isShuttingDown(): boolean {
  return state.started !== null;
}

export function shutdown(
  reason: string,
  options: { exit?: (code: number) => void; timeoutMs?: number } = {},
): Promise<void> {
  if (state.started) return state.started;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  console.log(`[shutdown] ${reason}: finishing the requests in flight`);
  const hardStop = setTimeout(() => {
    console.error('[shutdown] did not finish in time; exiting');
    exit(1);
  }, options.timeoutMs ?? SHUTDOWN_TIMEOUT_MS);
  hardStop.unref();
  state.started = (async () => {
    for (const step of [...state.steps].reverse()) {
      try {
        await step.run();
      } catch (error) {
        console.error(`[shutdown] ${step.name} failed:`, error);
      }
    }
    clearTimeout(hardStop);
    console.log('[shutdown] done');
    exit(0);
  })();
  return state.started;
}

/** SIGTERM and SIGINT start the shutdown (once per process). */
export function shutdownOnSignals(): void {
  if (state.signals) return;
  state.signals = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => void shutdown(signal));
}

/** Tests: forget the registered steps and the started shutdown. */
export function resetShutdownForTests(): void {
  state.steps = [];
  state.started = null;
}
