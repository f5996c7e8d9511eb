import 'server-only';
import { singleton } from '@/lib/singleton';
import { env } from '@/env';
import { TtlCache } from '@/lib/ttl-cache';
import { deepFreeze } from '@/lib/deep-freeze';
import { type Db, getDb } from '@/server/platform/db/client';
import { jsonNestsDeeperThan, readBodyBytes } from '@/server/platform/http/read-body';
import type { ApiPermission } from '@/lib/cms/api-key-permissions';
import type { EndpointDef } from '@/lib/cms/model';
import { type ApiKeyPrincipal, authenticateApiKey } from './api-keys';
import { CmsApiError, badRequest, notFound } from './errors';
import { onContentChange, recentChanges } from './events';
import { type ContentReads, affects, readsOfAnswer } from './reads';
import { findEndpoint } from '@/lib/cms/model';
import { parseDetailQuery, parseListQuery } from './query/params';
import { errorResponse } from '@/server/platform/http/error-answer';
import { enforceRateLimit } from '@/server/services/cms/api-key-limit';
import { type ReadMode, getContent, listContents } from './store';
import { createContent, deleteContent, updateContent } from './writes';

/**
 * The content API over HTTP, with microCMS's shapes, status codes and messages:
 * /api/v1/{endpoint} and /api/v1/{endpoint}/{contentId}. The site's own content client reads
 * the built-in service in process (readContentInProcess): the same checks, errors and cache,
 * without a Request, a Response or JSON in between.
 */

const MAX_BODY_BYTES = 300_000;

/**
 * A GET's answer: its text as the HTTP API sends it, and its JSON value deep-frozen, so that one
 * value serves every reader, of any audience, and none can change it for the next. Each is made
 * from the other when first asked for (answerText, answerValue). A published answer the cache
 * keeps also carries what it read, and `derived`: what readers made of the value (the content
 * client's validated answer per schema), which lives and goes with it, so a change that drops
 * the answer drops those too.
 */
export type ContentAnswer = {
  text?: string;
  value?: unknown;
  readonly reads?: ContentReads;
  readonly derived?: WeakMap<object, unknown>;
};

/**
 * Published answers by URL, as microCMS's CDN keeps them, each with what it read: a content
 * change drops the answers that read what changed (src/server/services/cms/reads.ts), on every instance
 * (src/server/services/cms/events.ts); the 30 s TTL is a backstop. Drafts never enter.
 * One cache per database (tests open several in one process).
 */
type AnswerCache = {
  answers: TtlCache<ContentAnswer>;
  inFlight: Map<string, Promise<ContentAnswer>>;
};
const answerCaches = singleton('cms-api-caches', () => new WeakMap<Db, AnswerCache>());

function publishedAnswers(db: Db): AnswerCache {
  let cache = answerCaches.get(db);
  if (!cache) {
    const created = { answers: new TtlCache<ContentAnswer>(30_000, 5000), inFlight: new Map() };
    onContentChange((change) =>
      created.answers.deleteWhere(({ reads }) => !reads || affects(reads, change)),
    );
    answerCaches.set(db, created);
    cache = created;
  }
  return cache;
}

/** What the store answered, in the form the reader wants: the HTTP text or the in-process value. */
type Form = 'text' | 'value';
function answerOf(stored: unknown, form: Form): ContentAnswer {
  const text = JSON.stringify(stored);
  // Through JSON even in process: the value is what a hosted service's reader would parse.
  return form === 'text' ? { text } : { value: deepFreeze(JSON.parse(text) as unknown) };
}

const answerText = (answer: ContentAnswer): string =>
  (answer.text ??= JSON.stringify(answer.value));

export const answerValue = (answer: ContentAnswer): unknown =>
  (answer.value ??= deepFreeze(JSON.parse(answer.text!) as unknown));

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sortedQuery(params: URLSearchParams): string {
  const copy = new URLSearchParams(params);
  copy.sort();
  return copy.toString();
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

function jsonText(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-current-date-time': new Date().toISOString(),
      ...headers,
    },
  });
}

/** Deeper than any item of the model nests; walks over the value recurse (values.ts). */
const MAX_BODY_DEPTH = 32;

/** The JSON body, counted while it streams in: 413 past the limit, nothing more read. */
async function readBody(request: Request): Promise<unknown> {
  const body = await readBodyBytes(request, MAX_BODY_BYTES);
  if (!body.ok) {
    throw body.status === 413
      ? new CmsApiError(413, 'Request body is too large.')
      : badRequest('Syntax error.');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
  } catch {
    throw badRequest('Syntax error.');
  }
  if (text.trim() === '') return undefined;
  if (jsonNestsDeeperThan(text, MAX_BODY_DEPTH))
    throw badRequest('Request body is too deeply nested.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('Syntax error.');
  }
}

function writeStatus(params: URLSearchParams): 'publish' | 'draft' | 'closed' {
  const status = params.get('status');
  if (!status) return 'publish';
  if (status === 'draft' || status === 'closed') return status;
  throw badRequest('invalid parameter.');
}

/** Who asks, and for which endpoint: the checks every request passes first, in this order. */
async function admit(
  db: Db,
  key: string | null,
  method: string,
  endpoint: string,
): Promise<{ principal: ApiKeyPrincipal; def: EndpointDef }> {
  const principal = await authenticateApiKey(db, key);
  if (!principal) throw new CmsApiError(401, 'X-MICROCMS-API-KEY header is invalid.');
  if (method !== 'GET' && !WRITE_METHODS.has(method))
    throw new CmsApiError(405, 'Method Not Allowed');
  const def = findEndpoint(endpoint);
  if (!def) throw notFound();
  if (!principal.permissions.has(method as ApiPermission))
    throw badRequest(`${method} is forbidden.`);
  await enforceRateLimit(db, principal, method === 'GET' ? 'read' : 'write');
  return { principal, def };
}

function checkParams(params: URLSearchParams): void {
  // PostgreSQL text cannot hold NUL: such a value can only be a malformed query.
  for (const value of params.values())
    if (value.includes('\u0000')) throw badRequest('invalid parameter.');
}

/** A GET: from the published answers' cache when it may be, else from the store. */
async function readAnswer(
  db: Db,
  principal: ApiKeyPrincipal,
  def: EndpointDef,
  endpoint: string,
  contentId: string | undefined,
  params: URLSearchParams,
  form: Form,
): Promise<ContentAnswer> {
  const isList = def.kind === 'list';
  if (!isList && contentId !== undefined) throw notFound();
  const draftKey = params.get('draftKey') || undefined;
  const mode: ReadMode = principal.permissions.has('drafts')
    ? { kind: 'allDrafts' }
    : draftKey
      ? { kind: 'draftKey', draftKey }
      : { kind: 'published' };
  const cacheKey =
    mode.kind === 'published' && env().CMS_API_CACHE === 'on'
      ? `${endpoint}/${contentId ?? ''}?${sortedQuery(params)}`
      : null;
  const read = async () =>
    isList && contentId === undefined
      ? await listContents(db, def, parseListQuery(params), mode)
      : await getContent(db, def, contentId ?? '', parseDetailQuery(params), mode);
  if (!cacheKey) return answerOf(await read(), form);
  const { answers: cache, inFlight } = publishedAnswers(db);
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;
  // Identical reads that miss together (after a content change) share one database read;
  // one started before a change is not shared after it, nor stored when the change touched
  // what it read.
  const since = recentChanges.seq;
  const flightKey = `${since}\u0000${cacheKey}`;
  let pending = inFlight.get(flightKey);
  if (!pending) {
    pending = read()
      .then((stored) => {
        const reads = readsOfAnswer(endpoint, contentId, params, stored);
        const answer: ContentAnswer = { ...answerOf(stored, form), reads, derived: new WeakMap() };
        if (!recentChanges.since(since, (change) => affects(reads, change)))
          cache.set(cacheKey, answer);
        return answer;
      })
      .finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, pending);
  }
  return pending;
}

async function handle(
  request: Request,
  db: Db,
  endpoint: string,
  contentId: string | undefined,
): Promise<Response> {
  const method = request.method.toUpperCase();
  const { principal, def } = await admit(
    db,
    request.headers.get('x-microcms-api-key'),
    method,
    endpoint,
  );
  const params = new URL(request.url).searchParams;
  checkParams(params);
  const isList = def.kind === 'list';

  if (method === 'GET')
    return jsonText(
      200,
      answerText(await readAnswer(db, principal, def, endpoint, contentId, params, 'text')),
    );

  // The item's history names the key that wrote (src/server/services/cms/versions.ts).
  // It answers before the analyser has read the kanji: their readings follow (search-index.ts).
  const writer = { actor: `key:${principal.id}`, action: 'api', readingsLater: true } as const;
  let result: { id: string };
  switch (method) {
    case 'POST':
      if (contentId !== undefined)
        throw badRequest('POST does not take a content id: use PUT to create with an id.');
      result = await createContent(
        db,
        def,
        { body: await readBody(request), status: writeStatus(params) },
        writer,
      );
      break;
    case 'PUT':
      if (contentId === undefined) throw badRequest('contentId is necessary.');
      result = await createContent(
        db,
        def,
        { id: contentId, body: await readBody(request), status: writeStatus(params) },
        writer,
      );
      break;
    case 'PATCH': {
      if (isList && contentId === undefined) throw badRequest('contentId is necessary.');
      if (!isList && contentId !== undefined) throw notFound();
      const status = params.get('status');
      if (status && status !== 'draft') throw badRequest('invalid parameter.');
      const { id } = await updateContent(
        db,
        def,
        contentId ?? '',
        await readBody(request),
        { draft: status === 'draft' },
        writer,
      );
      result = { id };
      break;
    }
    default: {
      if (contentId === undefined) throw badRequest('contentId is necessary.');
      await deleteContent(db, def, contentId, writer);
      return new Response('Accepted', {
        status: 202,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    }
  }
  return json(method === 'PATCH' ? 200 : 201, result);
}

/**
 * CmsApiError and QueryError (a filter's syntax error arrives as one) answer their own status
 * and message; anything else is logged and answered 500 in microCMS's words.
 */
const failed = (error: unknown, method: string, pathname: string): Response =>
  errorResponse(error, {
    log: '[cms] request failed:',
    logContext: [method, pathname],
    faultMessage: 'Internal Server Error',
    jsonHeaders: () => ({ 'x-current-date-time': new Date().toISOString() }),
  });

export async function handleContentApi(
  request: Request,
  endpoint: string,
  contentId?: string,
  db?: Db,
): Promise<Response> {
  try {
    return await handle(request, db ?? (await getDb()), endpoint, contentId);
  } catch (error) {
    return failed(error, request.method, new URL(request.url).pathname);
  }
}

/**
 * A GET of the content API in process, for the site's own client on the built-in service: the
 * same checks, cache and errors as over HTTP, answered as the frozen value (a cached answer's
 * value is the same object for every reader) or, when it fails, as the HTTP API's error.
 */
export async function readContentInProcess(
  apiKey: string,
  endpoint: string,
  contentId: string | undefined,
  query: string,
  db?: Db,
): Promise<ContentAnswer | Response> {
  try {
    const database = db ?? (await getDb());
    const { principal, def } = await admit(database, apiKey, 'GET', endpoint);
    const params = new URLSearchParams(query);
    checkParams(params);
    return await readAnswer(database, principal, def, endpoint, contentId, params, 'value');
  } catch (error) {
    return failed(
      error,
      'GET',
      `/api/v1/${endpoint}${contentId === undefined ? '' : `/${contentId}`}`,
    );
  }
}
