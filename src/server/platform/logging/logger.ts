import 'server-only';
import { format } from 'node:util';
import pino, { type Logger } from 'pino';
import { singleton } from '@/lib/singleton';
import { currentRequest } from '@/server/platform/http/request-context';

/**
 * The server's log: one JSON object per line on stdout (pino), each with the id of the request
 * it was written for. Every `console.*` call of the app, the framework and the libraries goes
 * through it (`routeConsoleToLog`), so no caller can forget the format or the request id.
 * Secrets are kept out in two layers: callers never log them, and known secret-bearing fields
 * of logged objects are censored here.
 */

export type LogSettings = { level: string };

/** Fields censored wherever they appear in a logged object (pino's redact paths). */
export const REDACTED_PATHS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'secret',
  'apiKey',
  'key',
  'authorization',
  'cookie',
  'set-cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.apiKey',
  '*.authorization',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["x-microcms-api-key"]',
  'headers["stripe-signature"]',
];

/** What every line has: the level's name, the time, the process. */
const LINE_OPTIONS = {
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
} satisfies pino.LoggerOptions;

/**
 * stdout, written asynchronously: lines logged while a write is under way go out together in
 * the next one, so a busy server makes one write per batch, not one blocking write per line
 * (about 4 % of its CPU under the readers' mix, docs/decisions/043-memory.md). pino writes
 * what is left synchronously when the process exits, `process.exit` included; what a SIGKILL
 * or a crash of Node itself catches in flight (a few milliseconds of lines) is lost.
 */
const stdout = () => pino.destination({ dest: 1, sync: false });

export function createLogger(
  settings: LogSettings,
  destination: pino.DestinationStream = stdout(),
): Logger {
  return pino(
    {
      ...LINE_OPTIONS,
      level: settings.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        // The request the line is written for (src/server/platform/http/request-context.ts).
        const requestId = currentRequest()?.requestId;
        return requestId ? { requestId } : {};
      },
    },
    destination,
  );
}

const installed = singleton('log-console', () => ({
  logger: null as Logger | null,
  requestLogger: null as Logger | null,
}));

/** The process's logger once installed (null before: tests and scripts keep the console). */
export function processLogger(): Logger | null {
  return installed.logger;
}

/**
 * The logger of the one line per answered request (request-log.ts), on the process logger's
 * stream: that line's fields are the site's own (id, method, path, status, time), none of them
 * a secret, so it skips the censoring every other line goes through (1.2 % of the CPU).
 */
export function requestLineLogger(): Logger | null {
  const { logger } = installed;
  if (!logger) return null;
  installed.requestLogger ??= pino(
    { ...LINE_OPTIONS, level: logger.level },
    (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym],
  );
  return installed.requestLogger;
}

const LEVEL_OF = {
  log: 'info',
  info: 'info',
  warn: 'warn',
  error: 'error',
  debug: 'debug',
} as const;

/**
 * One console call as a log entry: a leading "[tag]" becomes `component`, the first Error
 * becomes `err` (with its stack, through pino's serializer), the rest is the message as
 * console.log would have printed it.
 */
export function entryOf(args: unknown[]): { component?: string; err?: Error; msg: string } {
  const err = args.find((arg): arg is Error => arg instanceof Error);
  const rest = args.filter((arg) => arg !== err);
  let msg = format(...rest).trim();
  const tag = /^\[([\w-]{1,40})\]\s*/.exec(msg);
  if (tag) msg = msg.slice(tag[0].length);
  if (err && !msg) msg = err.message;
  return { ...(tag ? { component: tag[1] } : {}), ...(err ? { err } : {}), msg };
}

/** Sends every console call of the process to `logger` from now on. Once per process. */
export function routeConsoleToLog(logger: Logger): void {
  if (installed.logger) return;
  installed.logger = logger;
  installed.requestLogger = null;
  for (const method of Object.keys(LEVEL_OF) as (keyof typeof LEVEL_OF)[]) {
    const level = LEVEL_OF[method];
    console[method] = (...args: unknown[]) => {
      const { msg, ...fields } = entryOf(args);
      logger[level](fields, msg);
    };
  }
}

/**
 * At the production server's start (scripts/start.ts): JSON lines through pino, unless
 * LOG_FORMAT=text asks for the plain console (as `npm run dev` keeps).
 */
export function startLogging(settings: { LOG_LEVEL: string; LOG_FORMAT?: 'json' | 'text' }): void {
  if (settings.LOG_FORMAT === 'text') return;
  routeConsoleToLog(createLogger({ level: settings.LOG_LEVEL }));
}
