import 'server-only';
import pg from 'pg';
import { singleton } from '@/lib/singleton';
import { onShutdown } from '@/server/platform/lifecycle/shutdown';

/**
 * Whether the PostgreSQL server can be reached, known without a query: errors of the pool that
 * say the server is gone mark it down, and while it is down a background probe (`SELECT 1` on a
 * connection of its own) marks it up again. The front server answers a Japanese 503 page
 * meanwhile (src/server/features/front/db-outage.ts) and /api/health says so at once. The embedded
 * database lives in the process and is never down.
 */

/** Socket and DNS errors of a server that cannot be reached (Node's `code`). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** The server shutting down or starting (SQLSTATE 57P01-57P03); class 08 is matched apart. */
const SHUTDOWN_SQLSTATES = new Set(['57P01', '57P02', '57P03']);

/** What pg says when a connection it did not close ends; never "Connection terminated" alone. */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated unexpectedly$/,
  /^Connection terminated due to connection timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/**
 * Whether an error says the database server is unreachable, from an allow-list: a constraint
 * violation, a syntax error, a wrong password (28P01) or a missing database (3D000) are not.
 * Follows `cause` (drizzle wraps the driver's error) and AggregateError (both addresses of
 * `localhost` refused).
 */
export function isOutageError(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || SHUTDOWN_SQLSTATES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true; // connection exception
  }
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((m) => m.test(message))) return true;
  if (Array.isArray(errors) && errors.some((e) => isOutageError(e, depth + 1))) return true;
  return isOutageError(cause, depth + 1);
}

/** A short name for an error in a log line: its code, or its message; never a connection string. */
export function outageReason(error: unknown): string {
  for (let e: unknown = error, i = 0; e && typeof e === 'object' && i < 5; i++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    if (!cause) return e instanceof Error ? e.message.slice(0, 120) : 'unknown';
    e = cause;
  }
  return 'unknown';
}

/** The first probe after an outage is noticed, then the pause doubles up to the cap. */
export const PROBE_FIRST_DELAY_MS = 1_000;
export const PROBE_MAX_DELAY_MS = 2_000;
/** A probe that has not answered by then counts as failed. */
export const PROBE_TIMEOUT_MS = 1_500;

type Log = (line: string) => void;

/** The state machine: up ⇄ down, with one probe at a time while down. */
export class DatabaseAvailability {
  private up = true;
  private downSince = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly options: {
      /** Resolves when the server answers; rejects otherwise. */
      probe: () => Promise<void>;
      log?: Log;
      now?: () => number;
    },
  ) {}

  get available(): boolean {
    return this.up;
  }

  /** An error of the pool or of a query: marks the database down if it says it is unreachable. */
  observe(error: unknown): void {
    if (isOutageError(error)) this.markDown(outageReason(error));
  }

  markDown(reason: string): void {
    if (!this.up || this.stopped) return;
    this.up = false;
    this.downSince = this.now();
    this.log(
      `[db] データベースに接続できません。復旧を確認するまで 503 で応答します ` +
        `(database unreachable: ${reason}; answering 503 until it is back)`,
    );
    this.schedule(PROBE_FIRST_DELAY_MS);
  }

  /** Stops probing (shutdown). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.probe(delayMs), delayMs);
    this.timer.unref(); // a probe never keeps a stopping process alive
  }

  private async probe(lastDelayMs: number): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.options.probe(),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      if (!this.stopped) this.schedule(Math.min(lastDelayMs * 2, PROBE_MAX_DELAY_MS));
      return;
    } finally {
      clearTimeout(timeout);
    }
    if (this.stopped) return;
    this.up = true;
    const seconds = ((this.now() - this.downSince) / 1000).toFixed(1);
    this.log(`[db] データベースが復旧しました (database reachable again after ${seconds} s)`);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private log(line: string): void {
    (this.options.log ?? console.warn)(line);
  }
}

/** One `SELECT 1` on a connection of its own: a full pool or a dead pooled client cannot fool it. */
export async function probeServer(connectionString: string): Promise<void> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  });
  client.on('error', () => {}); // a socket error after connect must not crash the process
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Reports a pool's outages to `availability`: failed connects (a new connection refused), and
 * errors of its connections, idle or checked out. The listener on each connection also keeps an
 * error of a checked-out connection from being an unhandled 'error' event.
 */
export function watchPool(pool: pg.Pool, availability: DatabaseAvailability): void {
  pool.on('error', (error) => availability.observe(error));
  pool.on('connect', (client) => client.on('error', (error) => availability.observe(error)));
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void,
  ) => Promise<pg.PoolClient> | undefined;
  // pool.query connects through this property too.
  pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
    if (callback)
      return connect((error, client, done) => {
        if (error) availability.observe(error);
        callback(error, client, done);
      });
    return connect()!.catch((error: unknown) => {
      availability.observe(error);
      throw error;
    });
  }) as typeof pool.connect;
}

/** The process's PostgreSQL server, shared by every module instance (front server and routes). */
const processState = singleton('db-availability', () => ({
  current: undefined as DatabaseAvailability | undefined,
}));

/** The availability of the app's PostgreSQL server, made on first use and stopped on shutdown. */
export function serverAvailability(connectionString: string): DatabaseAvailability {
  if (!processState.current) {
    const availability = new DatabaseAvailability({ probe: () => probeServer(connectionString) });
    processState.current = availability;
    onShutdown('database availability probe', () => availability.stop());
  }
  return processState.current;
}

/** Whether the app's database can be queried, as last known (always true when embedded). */
export function databaseAvailable(): boolean {
  return processState.current?.available ?? true;
}

/** Tests: use this availability as the process's (undefined: none, always available). */
export function useAvailabilityForTests(availability: DatabaseAvailability | undefined): void {
  processState.current = availability;
}
