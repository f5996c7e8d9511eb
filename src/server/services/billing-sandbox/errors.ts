import 'server-only';

/**
 * An error answered in Stripe's shape, `{ error: { type, message, code?, param? } }`, so that
 * the official SDK raises the same error classes against the sandbox as against Stripe
 * (StripeInvalidRequestError for 400/404, StripeAuthenticationError for 401, …).
 */
export type StripeErrorType =
  'invalid_request_error' | 'idempotency_error' | 'api_error' | 'card_error';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** Further fields of Stripe's error object, such as a card error's `decline_code`. */
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'StripeApiError';
  }

  toJSON(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, message: this.message };
    if (this.code) error.code = this.code;
    if (this.param) error.param = this.param;
    Object.assign(error, this.extra);
    return { error };
  }
}

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', message, code, param);
}

export function missingParam(param: string): StripeApiError {
  return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
}

export function invalidParam(param: string, message: string): StripeApiError {
  return invalidRequest(message, param, 'parameter_invalid_string');
}

/** Stripe's answer for an id it does not know, naming the parameter that held it. */
export function resourceMissing(kind: string, id: string, param = 'id'): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `No such ${kind}: '${id}'`,
    'resource_missing',
    param,
  );
}

/** Stripe's card error (HTTP 402), as the SDK raises StripeCardError for it. */
export function cardError(
  message: string,
  code: string,
  param?: string,
  extra: Record<string, string> = {},
): StripeApiError {
  return new StripeApiError(402, 'card_error', message, code, param, extra);
}
