import 'server-only';
import { AppError, GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import type { FormResult } from './form-endpoint';

/**
 * The one place an error becomes an answer. An AppError that may be shown (a refusal) answers
 * with its own status, message and headers; anything else is a fault: logged whole after `log`
 * and answered 500 with a generic message, so the client learns nothing of it.
 */

export type ErrorAnswer = {
  status: number;
  message: string;
  headers: Readonly<Record<string, string>>;
  retryAfterSeconds?: number;
  /** The form field a refusal is about. */
  field?: string;
};

export type ErrorAnswerOptions = {
  /** How the log line of a fault starts (`[contact] failed:`, say). */
  log: string;
  /** What a fault answers instead of the generic Japanese message. */
  faultMessage?: string;
  /** Further context for the log line of a fault (method and path, say). */
  logContext?: readonly unknown[];
};

/** A refusal's answer; undefined for anything else (a fault, which the caller logs or throws on). */
export function refusalAnswer(error: unknown): ErrorAnswer | undefined {
  if (!(error instanceof AppError) || !error.expose) return undefined;
  return {
    status: error.status,
    message: error.message,
    headers: error.headers,
    ...(error.retryAfterSeconds !== undefined
      ? { retryAfterSeconds: error.retryAfterSeconds }
      : {}),
    ...(error.field !== undefined ? { field: error.field } : {}),
  };
}

export function errorAnswer(error: unknown, options: ErrorAnswerOptions): ErrorAnswer {
  const refusal = refusalAnswer(error);
  if (refusal) return refusal;
  console.error(options.log, ...(options.logContext ?? []), error);
  return { status: 500, message: options.faultMessage ?? GENERIC_ERROR_MESSAGE, headers: {} };
}

export type FailedResult = Extract<FormResult, { ok: false }>;

/**
 * An answer as a form's failed result (src/server/platform/http/form-endpoint.ts): its status, message
 * and retry time, and the message beside its field when the refusal names one.
 */
export function failedResult(answer: ErrorAnswer): FailedResult {
  return {
    ok: false,
    status: answer.status,
    message: answer.message,
    ...(answer.field !== undefined ? { fieldErrors: { [answer.field]: answer.message } } : {}),
    ...(answer.retryAfterSeconds !== undefined ? { retryAfter: answer.retryAfterSeconds } : {}),
  };
}

/**
 * Runs `run`: a refusal it throws (a rate limit, say) comes back as the failed result a form
 * answers with, the same endpoint() would send; a fault is thrown on.
 */
export async function catchRefusal<T>(run: () => Promise<T>): Promise<T | FailedResult> {
  try {
    return await run();
  } catch (error) {
    const refusal = refusalAnswer(error);
    if (!refusal) throw error;
    return failedResult(refusal);
  }
}

export type ErrorResponseOptions = ErrorAnswerOptions & {
  /** Headers on every JSON answer (not on a bodiless one). */
  jsonHeaders?: () => Record<string, string>;
  /** What an error without a message answers as its message; default: no body at all. */
  blankMessage?: string;
};

/** The error as `{message}` JSON with its status (no body for a blank message, as microCMS). */
export function errorResponse(error: unknown, options: ErrorResponseOptions): Response {
  const answer = errorAnswer(error, options);
  const headers: Record<string, string> = { 'cache-control': 'private, no-store' };
  if (answer.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(answer.retryAfterSeconds);
  const message = answer.message || options.blankMessage;
  if (!message)
    return new Response(null, {
      status: answer.status,
      headers: { ...headers, ...answer.headers },
    });
  return new Response(JSON.stringify({ message }), {
    status: answer.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...headers,
      ...options.jsonHeaders?.(),
      ...answer.headers,
    },
  });
}
