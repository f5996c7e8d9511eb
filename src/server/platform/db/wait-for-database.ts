import 'server-only';
import { isOutageError, outageReason } from './availability';

/** The pause after the first failed attempt, doubled after each further one up to the cap. */
export const START_RETRY_FIRST_MS = 1_000;
export const START_RETRY_MAX_MS = 30_000;

/**
 * Opens the database at start, waiting for a PostgreSQL server that cannot be reached yet (it
 * starts after the app, or is restarting) instead of exiting: an orchestrator that restarts an
 * exited process would otherwise loop. Each attempt first probes the server with a short
 * timeout, so an unanswering host costs seconds, not the system's TCP timeout. Anything else
 * (a wrong password, a missing database, a failed migration) is thrown as it is, and stops the
 * start. A SIGTERM meanwhile ends the process as usual: nothing here holds it.
 */
export async function openWhenReachable<T>(
  open: () => Promise<T>,
  options: {
    /** Where, for the log: the URL without its password (redactUrl). */
    location: string;
    probe?: () => Promise<void>;
    log?: (line: string) => void;
    sleep?: (ms: number) => Promise<void>;
  },
): Promise<T> {
  const log = options.log ?? console.warn;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1, delay = START_RETRY_FIRST_MS; ; attempt++) {
    try {
      await options.probe?.();
      return await open();
    } catch (error) {
      if (!isOutageError(error)) throw error;
      log(
        `[db] PostgreSQL に接続できません。${delay / 1000} 秒後に再接続します ` +
          `(cannot reach ${options.location}: ${outageReason(error)}; attempt ${attempt}, ` +
          `retrying in ${delay / 1000} s)`,
      );
      await sleep(delay);
      delay = Math.min(delay * 2, START_RETRY_MAX_MS);
    }
  }
}
