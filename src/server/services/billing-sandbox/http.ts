import 'server-only';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Db } from '@/server/platform/db/client';
import { readBodyBytes } from '@/server/platform/http/read-body';
import { StripeApiError, invalidRequest } from './errors';
import { expandListItems, expandObject } from './expand';
import { decodeStripeForm } from './form-body';
import { handleHostedPage } from './hosted/pages';
import { isHostedPagePath } from './hosted/paths';
import {
  claimIdempotencyKey,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
  requestHash,
} from './idempotency';
import type { ListAnswer } from './list';
import { Params } from './params';
import type { RouteResult } from './resources/route';
import { matchRoute, pathSegments } from './routes';
import { isSandboxAuthorization } from './secret-key';

/**
 * The billing sandbox over HTTP: the subset of Stripe's REST API the app uses, in Stripe's
 * protocol (Bearer secret key, form-encoded bodies in bracket notation, Idempotency-Key,
 * Stripe-Version, list envelopes, error shapes), so that the official SDK pointed at it
 * behaves as against Stripe. Served under /billing-sandbox/v1/… (or /v1/… on a host of its own).
 * Its own checkout and portal pages (/billing-sandbox/checkout/…, /billing-sandbox/portal/…)
 * take no key: the session id in their path is the credential, as on Stripe.
 */

export { isBillingSandboxPath } from './hosted/paths';

/** The only version the sandbox speaks: the one the installed SDK is pinned to. */
export const SANDBOX_API_VERSION = Stripe.API_VERSION;

const MAX_BODY_BYTES = 100_000;
const PATH_PREFIX = /^(?:\/billing-sandbox)?\/v1\//;
const API_VERSION_SYNTAX = /^\d{4}-\d{2}-\d{2}(?:\.[a-z]+)?$/;

type Answer = { status: number; body: string; headers?: Record<string, string> };

function respond(answer: Answer, idempotencyKey: string | null): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      'request-id': `req_${randomBytes(10).toString('hex')}`,
      'stripe-version': SANDBOX_API_VERSION,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...answer.headers,
    },
  });
}

function errorAnswer(error: StripeApiError): Answer {
  return { status: error.status, body: JSON.stringify(error.toJSON(), null, 2) };
}

/**
 * Stripe answers in the version a request names, else the account's default. The sandbox
 * can only answer in its pinned version, so it refuses any other instead of answering in
 * shapes the caller did not ask for.
 */
function checkApiVersion(header: string | null): void {
  if (header === null || header === SANDBOX_API_VERSION) return;
  if (!API_VERSION_SYNTAX.test(header)) {
    throw invalidRequest(`Invalid Stripe API version: ${header}`);
  }
  throw invalidRequest(
    `The billing sandbox answers only in API version ${SANDBOX_API_VERSION}; this request asked for ${header}.`,
  );
}

function unauthenticated(header: string | null): StripeApiError {
  return new StripeApiError(
    401,
    'invalid_request_error',
    header
      ? 'Invalid API Key provided. Use the billing sandbox secret key.'
      : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
  );
}

async function readFormBody(request: Request): Promise<string> {
  const body = await readBodyBytes(request, MAX_BODY_BYTES);
  if (!body.ok) {
    throw new StripeApiError(
      body.status,
      'invalid_request_error',
      body.status === 413 ? 'Request body is too large.' : 'Invalid request body.',
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
  } catch {
    throw invalidRequest('Invalid request body: not UTF-8.');
  }
}

function isList(result: RouteResult): result is ListAnswer {
  return result.object === 'list' && 'has_more' in result;
}

async function run(
  db: Db,
  origin: string,
  method: string,
  path: string,
  segments: string[],
  form: string,
): Promise<Answer> {
  const match = matchRoute(method, segments);
  if (!match) {
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  }
  const params = new Params(decodeStripeForm(form));
  const expand = params.stringArray('expand', 20) ?? [];
  const result: RouteResult = await match.route.handle({ db, origin, params, path, id: match.id });
  const expanded = isList(result)
    ? { ...result, data: await expandListItems(db, result.data, expand) }
    : await expandObject(db, result, expand);
  return { status: 200, body: JSON.stringify(expanded, null, 2) };
}

export async function handleBillingSandbox(request: Request, db: Db): Promise<Response> {
  const idempotencyKey = request.method === 'POST' ? request.headers.get('idempotency-key') : null;
  let claimed = false;
  try {
    const url = new URL(request.url);
    if (isHostedPagePath(url.pathname)) return await handleHostedPage(request, db);
    const authorization = request.headers.get('authorization');
    if (!(await isSandboxAuthorization(db, authorization))) throw unauthenticated(authorization);
    checkApiVersion(request.headers.get('stripe-version'));
    const method = request.method.toUpperCase();
    const prefix = PATH_PREFIX.exec(url.pathname);
    const path = prefix ? `/v1/${url.pathname.slice(prefix[0].length)}` : url.pathname;
    const segments = prefix ? pathSegments(url.pathname.slice(prefix[0].length)) : [];
    if (method !== 'POST')
      return respond(await run(db, url.origin, method, path, segments, url.search.slice(1)), null);

    const form = await readFormBody(request);
    if (url.search.length > 1) {
      throw invalidRequest('Parameters of a POST request belong in its body.');
    }
    if (!idempotencyKey)
      return respond(await run(db, url.origin, method, path, segments, form), null);
    const claim = await claimIdempotencyKey(db, idempotencyKey, requestHash(method, path, form));
    if (claim.kind === 'replay') {
      return respond(
        { ...claim.answer, headers: { 'idempotent-replayed': 'true' } },
        idempotencyKey,
      );
    }
    claimed = true;
    let answer: Answer;
    try {
      answer = await run(db, url.origin, method, path, segments, form);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      answer = errorAnswer(error);
    }
    await recordIdempotentAnswer(db, idempotencyKey, answer);
    return respond(answer, idempotencyKey);
  } catch (error) {
    if (error instanceof StripeApiError) return respond(errorAnswer(error), idempotencyKey);
    if (claimed && idempotencyKey) await releaseIdempotencyKey(db, idempotencyKey).catch(() => {});
    console.error('[billing-sandbox] request failed:', request.method, request.url, error);
    return respond(
      errorAnswer(new StripeApiError(500, 'api_error', 'An unexpected error occurred.')),
      idempotencyKey,
    );
  }
}
