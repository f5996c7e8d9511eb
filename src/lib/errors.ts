/**
 * The one error family: a refusal the user can be told about carries its HTTP status, a stable
 * code (for logs, tests and callers that branch) and a message safe to show as it is (Japanese,
 * except where an API copies another service's English wording). Anything that is not an
 * AppError, or one with `expose: false`, is a fault: logged whole and answered with a generic
 * message (src/server/platform/http/error-answer.ts maps both kinds to answers).
 *
 * Pure: no server imports, so the same classes can be thrown and recognised anywhere.
 */

export type AppErrorOptions = {
  /** The HTTP status the refusal answers with. */
  status: number;
  /** Stable and machine-readable; never shown in place of the message. */
  code: string;
  /** Whether `message` may reach the user. Default: true below 500, false from 500 up. */
  expose?: boolean;
  /** Extra answer headers (an API's rate-limit headers, say). */
  headers?: Readonly<Record<string, string>>;
  /** Seconds to wait before trying again, sent as Retry-After. */
  retryAfterSeconds?: number;
  /** The form field the refusal is about, where a form shows its message beside that field. */
  field?: string;
  cause?: unknown;
};

export const GENERIC_ERROR_MESSAGE =
  '処理中にエラーが発生しました。時間をおいてもう一度お試しください。';

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly expose: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly retryAfterSeconds?: number;
  readonly field?: string;

  constructor(message: string, options: AppErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status;
    this.code = options.code;
    this.expose = options.expose ?? options.status < 500;
    this.headers = options.headers ?? {};
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.field !== undefined) this.field = options.field;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/**
 * What is told to the person at a terminal who runs a command or starts the server, and not
 * to a site user: settings that cannot be read, a data directory another process holds, a
 * command line or command input that cannot be used. The message is the whole story (what is
 * wrong and what to do), printed without a stack; the process exits, so there is no HTTP
 * status. Each kind stays its own subclass, which tests and callers name.
 */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}
