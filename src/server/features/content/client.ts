import 'server-only';
import { z } from '@/lib/zod';
import { MEMBERS_POSTS_FILTER } from '@/lib/access/filters';
import { deepFreeze } from '@/lib/deep-freeze';
import { type ContentReads, readsOfAnswer } from '@/server/services/cms/reads';
import { noteContentReads } from '@/server/features/audience';

// The one client the site reads content through. It mirrors microcms-js-sdk v3.5.1 (methods,
// error strings, retry policy, bounded getAll loop) so the same calls work against a hosted
// microCMS and our built-in service; the SDK itself has no base-URL or fetch option.

/** Rows per page of getAllContentIds / getAllContents (the SDK's and microCMS's maximum). */
export const CONTENT_PAGE_SIZE = 100;
/** Rows per page of getAll: the built-in service allows limit up to 1000; hosted microCMS does not. */
export const CONTENT_GET_ALL_PAGE_SIZE = 1000;
/** Pause between pages of the list-everything helpers, to stay under the service's rate limit. */
export const CONTENT_PAGE_PAUSE_MS = 1000;
/** Posts readable in full on the free plan. */
export const FREE_PLAN_POST_LIMIT = 3;
/** Retries after the first attempt when `retry` is on (3 attempts in all). */
export const CONTENT_MAX_RETRIES = 2;
/** async-retry's minTimeout in the SDK. */
export const CONTENT_RETRY_MIN_TIMEOUT_MS = 5000;
/** async-retry's default backoff factor. */
export const CONTENT_RETRY_FACTOR = 2;

export type ContentQueries = {
  draftKey?: string;
  limit?: number;
  offset?: number;
  orders?: string;
  fields?: string | string[];
  q?: string;
  depth?: 0 | 1 | 2 | 3;
  ids?: string | string[];
  filters?: string;
  richEditorFormat?: 'html' | 'object';
  status?: 'draft' | 'closed';
};

/** Method, headers and body belong to the client; the rest (signal, cache, next) is the caller's. */
export type CustomRequestInit = Omit<RequestInit, 'method' | 'headers' | 'body'>;

export type ListContentMeta = {
  id: string;
  createdAt: string;
  updatedAt: string;
  publishedAt?: string;
  revisedAt?: string;
};

export type ObjectContentMeta = Omit<ListContentMeta, 'id'>;

export type ListResponse<T> = {
  contents: (T & ListContentMeta)[];
  totalCount: number;
  offset: number;
  limit: number;
};

export type WriteResult = { id: string };

const isoDateTime = z.iso.datetime({ offset: true });

// Drafts read with a draftKey have never been published, hence the optional dates.
export const objectSystemFieldsSchema = z.object({
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  publishedAt: isoDateTime.optional(),
  revisedAt: isoDateTime.optional(),
});

export const systemFieldsSchema = objectSystemFieldsSchema.extend({ id: z.string().min(1) });

/**
 * A schema made from an item's schema, made once per item schema: a validated in-process answer
 * is kept per schema object (validated()), so the same read must check with the same object.
 */
export function oncePerSchema<Make extends <T>(itemSchema: z.ZodType<T>) => z.ZodType>(
  make: Make,
): Make {
  const made = new WeakMap<z.ZodType, z.ZodType>();
  return (<T>(itemSchema: z.ZodType<T>) => {
    let schema = made.get(itemSchema);
    if (!schema) {
      schema = make(itemSchema);
      made.set(itemSchema, schema);
    }
    return schema;
  }) as Make;
}

export const listItemSchema = oncePerSchema(<T>(itemSchema: z.ZodType<T>) =>
  z.intersection(systemFieldsSchema, itemSchema),
);

export const listResponseSchema = oncePerSchema(<T>(itemSchema: z.ZodType<T>) =>
  z.object({
    contents: z.array(listItemSchema(itemSchema)),
    totalCount: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
    limit: z.number().int().nonnegative(),
  }),
);

const objectSchema = oncePerSchema(<T>(itemSchema: z.ZodType<T>) =>
  z.intersection(objectSystemFieldsSchema, itemSchema),
);

const totalCountSchema = z.object({ totalCount: z.number().int().nonnegative() });
const pageSchema = z.object({ contents: z.array(z.unknown()) });

export type ContentRequestError = Error & {
  readonly status: number | undefined;
  /** The request URL with any draftKey value replaced by `***`, safe to log. */
  readonly url: string;
  readonly originalError: unknown;
};

const maskDraftKey = (url: string): string => url.replace(/([?&]draftKey=)[^&#]*/g, '$1***');

// Non-enumerable like the SDK, so logging or serialising the error never spreads them around.
function createContentRequestError(
  message: string,
  details: { status?: number; url: string; originalError?: unknown },
): ContentRequestError {
  const error = new Error(message);
  Object.defineProperties(error, {
    status: { value: details.status, enumerable: false, configurable: true, writable: true },
    url: {
      value: maskDraftKey(details.url),
      enumerable: false,
      configurable: true,
      writable: true,
    },
    originalError: {
      value: details.originalError,
      enumerable: false,
      configurable: true,
      writable: true,
    },
  });
  return error as ContentRequestError;
}

// Duck-typed rather than instanceof: Next.js may load this module once per bundle layer.
export function isContentRequestError(error: unknown): error is ContentRequestError {
  if (!(error instanceof Error)) return false;
  const has = (key: string) => Object.prototype.hasOwnProperty.call(error, key);
  const { status, url } = error as Partial<ContentRequestError>;
  return (
    has('status') &&
    (typeof status === 'number' || status === undefined) &&
    has('url') &&
    typeof url === 'string' &&
    has('originalError')
  );
}

/** async-retry's wait before retry number attempt+1: factor 2, randomize on, no maximum. */
export function contentRetryDelay(attempt: number, random: () => number = Math.random): number {
  return Math.round(
    (1 + random()) * CONTENT_RETRY_MIN_TIMEOUT_MS * CONTENT_RETRY_FACTOR ** attempt,
  );
}

export function serializeContentQueries(queries: unknown): string {
  if (queries === null || typeof queries !== 'object') {
    throw new Error('queries is not object');
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(queries)) {
    // String() turns arrays into comma lists, which is how the API takes fields and ids.
    if (value !== undefined) params.append(key, String(value));
  }
  return params.toString();
}

function formatIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return error.message;
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

function parseWith<T>(schema: z.ZodType<T>, data: unknown, endpoint: string): T {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new Error(`Invalid content response: ${endpoint}: ${formatIssue(result.error)}`, {
      cause: result.error,
    });
  }
  return result.data;
}

/**
 * A GET answered in process (the built-in service: readContentInProcess in
 * src/server/services/cms/http.ts): the answer's JSON value, deep-frozen and, for a cached answer, the
 * same object for every reader; what it read, when the service worked that out; and `derived`,
 * where the client keeps what it validated of a cached answer, dropped with the answer.
 */
export type InProcessAnswer = {
  value: unknown;
  reads?: ContentReads;
  derived?: WeakMap<object, unknown>;
};

export type ContentClientOptions = {
  /** e.g. http://localhost:3000/api/v1 or https://{service}.microcms.io/api/v1 */
  baseUrl: string;
  apiKey: string;
  /** Retry 429, 5xx and network failures (writes too, as the SDK does). Off by default. */
  retry?: boolean;
  /** The built-in service passes an in-process fetch; otherwise the global one, read per call. */
  fetch?: typeof globalThis.fetch;
  /**
   * The built-in service's reads in process, without a Request, JSON or (for a cached answer)
   * zod again: an answer, or the HTTP API's error answer. Writes still go through `fetch`.
   */
  readInProcess?: (
    endpoint: string,
    contentId: string | undefined,
    query: string,
  ) => Promise<InProcessAnswer | Response>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Called before each retry wait; defaults to a console warning like the SDK's log. */
  onRetry?: (error: ContentRequestError, retryNumber: number) => void;
};

export type GetRequest<T> = {
  endpoint: string;
  contentId?: string;
  queries?: ContentQueries;
  customRequestInit?: CustomRequestInit;
  /** Schema for the whole answer as is; for `fields`-narrowed reads that lack the system fields. */
  schema?: z.ZodType<T>;
};

export type GetListRequest<T> = {
  endpoint: string;
  queries?: ContentQueries;
  customRequestInit?: CustomRequestInit;
  /**
   * Schema of one item's own fields; the system fields are required too (systemFieldsSchema),
   * so a read narrowed by `fields` should go through get() with its own schema instead.
   */
  schema?: z.ZodType<T>;
};

export type GetListDetailRequest<T> = GetListRequest<T> & { contentId: string };

export type GetObjectRequest<T> = GetListRequest<T>;

export type GetAllContentIdsRequest = {
  endpoint: string;
  /** A string field to collect instead of id (a slug, for instance). */
  alternateField?: string;
  draftKey?: string;
  filters?: string;
  orders?: string;
  customRequestInit?: CustomRequestInit;
};

export type GetAllContentsRequest = {
  endpoint: string;
  queries?: Omit<ContentQueries, 'limit' | 'offset' | 'ids'>;
  customRequestInit?: CustomRequestInit;
};

export type CreateRequest<T extends object> = {
  endpoint: string;
  /** Given: PUT with this id; omitted: POST and the service picks the id. */
  contentId?: string;
  content: T;
  isDraft?: boolean;
  isClosed?: boolean;
  customRequestInit?: CustomRequestInit;
};

export type UpdateRequest<T extends object> = {
  endpoint: string;
  /** Omitted for an object API. */
  contentId?: string;
  content: Partial<T>;
  isDraft?: boolean;
  customRequestInit?: CustomRequestInit;
};

export type DeleteRequest = {
  endpoint: string;
  contentId: string;
  customRequestInit?: CustomRequestInit;
};

type MakeRequest = {
  endpoint: string;
  contentId?: string;
  queries?: unknown;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  customRequestInit?: CustomRequestInit;
};

type Attempt =
  | { ok: true; value: unknown; answer?: InProcessAnswer }
  | { ok: false; error: Error; retryable: boolean };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const missingEndpoint = () => Promise.reject(new Error('endpoint is required'));
const missingContentId = () => Promise.reject(new Error('contentId is required'));

async function readErrorMessage(response: Response): Promise<string | null> {
  // Error bodies are optional (a 404 has none), so an unreadable body is not an error here.
  try {
    const body: unknown = await response.json();
    if (body !== null && typeof body === 'object' && 'message' in body) {
      const { message } = body;
      if (typeof message === 'string' && message) return message;
    }
    return null;
  } catch {
    return null;
  }
}

async function failure(response: Response, url: string): Promise<Attempt> {
  const message = await readErrorMessage(response);
  const error = createContentRequestError(
    `fetch API response status: ${response.status}${message ? `\n  message is \`${message}\`` : ''}`,
    { status: response.status, url },
  );
  // Any other 4xx is the request's fault and would fail the same way again.
  const permanent = response.status !== 429 && response.status >= 400 && response.status < 500;
  return { ok: false, error, retryable: !permanent };
}

/** What a read answered: its value, and the in-process answer it came from, if it did. */
type Got = { value: unknown; answer?: InProcessAnswer };

/**
 * An answer checked against its schema. An in-process answer is frozen and so is what is made
 * of it; a cached one keeps it per schema, so the next reader of that answer gets the same
 * object without zod: the answer is the same until a change drops it, and the check with it.
 */
function validated<T>(schema: z.ZodType<T>, got: Got, endpoint: string): T {
  const { answer } = got;
  if (!answer) return parseWith(schema, got.value, endpoint);
  if (answer.derived?.has(schema)) return answer.derived.get(schema) as T;
  const value = deepFreeze(parseWith(schema, got.value, endpoint));
  answer.derived?.set(schema, value);
  return value;
}

export function createContentClient(options: ContentClientOptions) {
  const { baseUrl: rawBaseUrl, apiKey } = options;
  if (!rawBaseUrl || !apiKey) {
    throw new Error('parameter is required (check serviceDomain and apiKey)');
  }
  if (typeof rawBaseUrl !== 'string' || typeof apiKey !== 'string') {
    throw new Error('parameter is not string');
  }
  const baseUrl = rawBaseUrl.replace(/\/+$/, '');
  const retries = options.retry ? CONTENT_MAX_RETRIES : 0;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const onRetry =
    options.onRetry ??
    ((error: ContentRequestError, retryNumber: number) => {
      console.warn(
        `[content] ${error.message} (${error.url}); waiting for retry (${retryNumber}/${CONTENT_MAX_RETRIES})`,
      );
    });
  const doFetch: typeof globalThis.fetch = (input, init) =>
    (options.fetch ?? globalThis.fetch)(input, init);

  async function attemptOnce(url: string, init: RequestInit): Promise<Attempt> {
    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      const error = createContentRequestError(`Network Error.\n  Details: ${detail}`, {
        url,
        originalError: cause,
      });
      // A caller that aborted has given up; waiting 5 s to ask again would only delay it.
      return { ok: false, error, retryable: !init.signal?.aborted };
    }

    if (!response.ok) return failure(response, url);

    // DELETE answers 202 with a plain-text body.
    if (init.method === 'DELETE') return { ok: true, value: undefined };
    try {
      return { ok: true, value: await response.json() };
    } catch (cause) {
      // The SDK lets a broken success body reach async-retry, which retries it.
      return {
        ok: false,
        error: cause instanceof Error ? cause : new Error(String(cause)),
        retryable: true,
      };
    }
  }

  async function attemptInProcess(
    read: NonNullable<ContentClientOptions['readInProcess']>,
    url: string,
    endpoint: string,
    contentId: string | undefined,
    queryString: string,
  ): Promise<Attempt> {
    const answer = await read(endpoint, contentId, queryString);
    if (answer instanceof Response) return failure(answer, url);
    return { ok: true, value: answer.value, answer };
  }

  async function makeRequest({
    endpoint,
    contentId,
    queries = {},
    method = 'GET',
    body,
    customRequestInit,
  }: MakeRequest): Promise<Got> {
    const queryString = serializeContentQueries(queries);
    // Like the SDK, endpoint and contentId are not encoded: callers pass API ids, not free text.
    const url = `${baseUrl}/${endpoint}${contentId ? `/${contentId}` : ''}${queryString ? `?${queryString}` : ''}`;
    const headers = new Headers({ 'X-MICROCMS-API-KEY': apiKey });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const init: RequestInit = {
      ...customRequestInit,
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };

    // A cached page is filed with what it read (features/audience/render-record.ts); a draft never.
    const note = (got: Got | undefined) => {
      if (method === 'GET' && !/(?:^|&)draftKey=/.test(queryString))
        noteContentReads(
          () =>
            got?.answer?.reads ??
            readsOfAnswer(endpoint, contentId, new URLSearchParams(queryString), got?.value),
        );
    };
    const { readInProcess } = options;
    for (let attempt = 0; ; attempt++) {
      const outcome =
        readInProcess && method === 'GET'
          ? await attemptInProcess(readInProcess, url, endpoint, contentId, queryString)
          : await attemptOnce(url, init);
      if (outcome.ok) {
        const got = { value: outcome.value, answer: outcome.answer };
        note(got);
        return got;
      }
      if (!outcome.retryable || attempt >= retries) {
        note(undefined);
        throw outcome.error;
      }
      if (isContentRequestError(outcome.error)) onRetry(outcome.error, attempt + 1);
      await sleep(contentRetryDelay(attempt, random));
    }
  }

  async function get<T = unknown>({
    endpoint,
    contentId,
    queries,
    customRequestInit,
    schema,
  }: GetRequest<T>): Promise<T> {
    if (!endpoint) return missingEndpoint();
    const got = await makeRequest({ endpoint, contentId, queries, customRequestInit });
    if (schema) return validated(schema, got, endpoint);
    return got.value as T;
  }

  async function getList<T = unknown>({
    endpoint,
    queries,
    customRequestInit,
    schema,
  }: GetListRequest<T>): Promise<ListResponse<T>> {
    if (!endpoint) return missingEndpoint();
    const got = await makeRequest({ endpoint, queries, customRequestInit });
    if (schema) return validated(listResponseSchema(schema), got, endpoint);
    return got.value as ListResponse<T>;
  }

  async function getListDetail<T = unknown>({
    endpoint,
    contentId,
    queries,
    customRequestInit,
    schema,
  }: GetListDetailRequest<T>): Promise<T & ListContentMeta> {
    if (!endpoint) return missingEndpoint();
    if (!contentId) return missingContentId();
    const got = await makeRequest({ endpoint, contentId, queries, customRequestInit });
    if (schema) return validated(listItemSchema(schema), got, endpoint);
    return got.value as T & ListContentMeta;
  }

  async function getObject<T = unknown>({
    endpoint,
    queries,
    customRequestInit,
    schema,
  }: GetObjectRequest<T>): Promise<T & ObjectContentMeta> {
    if (!endpoint) return missingEndpoint();
    const got = await makeRequest({ endpoint, queries, customRequestInit });
    if (schema) return validated(objectSchema(schema), got, endpoint);
    return got.value as T & ObjectContentMeta;
  }

  async function readTotalCount(
    endpoint: string,
    queries: object,
    customRequestInit: CustomRequestInit | undefined,
  ): Promise<number> {
    const got = await makeRequest({
      endpoint,
      queries: { ...queries, limit: 0 },
      customRequestInit,
    });
    return validated(totalCountSchema, got, endpoint).totalCount;
  }

  // The v3.5.1 loop: it ends on offset, not on rows received, so a server that returns fewer
  // rows than its totalCount cannot make it spin forever.
  async function collectPages<R>(
    endpoint: string,
    queries: object,
    pageSize: number,
    customRequestInit: CustomRequestInit | undefined,
    readPage: (contents: unknown[]) => R[],
  ): Promise<R[]> {
    const totalCount = await readTotalCount(endpoint, queries, customRequestInit);
    const rows: R[] = [];
    let offset = 0;
    while (offset < totalCount) {
      const got = await makeRequest({
        endpoint,
        queries: { ...queries, limit: pageSize, offset },
        customRequestInit,
      });
      const page = validated(pageSchema, got, endpoint);
      rows.push(...readPage(page.contents));
      offset += pageSize;
      if (offset < totalCount) await sleep(CONTENT_PAGE_PAUSE_MS);
    }
    return rows;
  }

  async function getAllContentIds({
    endpoint,
    alternateField,
    draftKey,
    filters,
    orders,
    customRequestInit,
  }: GetAllContentIdsRequest): Promise<string[]> {
    if (!endpoint) return missingEndpoint();
    const field = alternateField ?? 'id';
    const queries = { draftKey, filters, orders, fields: field, depth: 0 };
    return collectPages(endpoint, queries, CONTENT_PAGE_SIZE, customRequestInit, (contents) =>
      contents.map((content) => {
        const value =
          content !== null && typeof content === 'object'
            ? (content as Record<string, unknown>)[field]
            : undefined;
        if (typeof value !== 'string') {
          throw new Error('The value of the field specified by `alternateField` is not a string.');
        }
        return value;
      }),
    );
  }

  /** Every item of a list, page by page with a pause between pages (SPEC §7). */
  function pagedReader(pageSize: number) {
    return async function <T = unknown>({
      endpoint,
      queries = {},
      customRequestInit,
    }: GetAllContentsRequest): Promise<(T & ListContentMeta)[]> {
      if (!endpoint) return missingEndpoint();
      return collectPages(
        endpoint,
        queries,
        pageSize,
        customRequestInit,
        (contents) => contents as (T & ListContentMeta)[],
      );
    };
  }

  const getAllContents = pagedReader(CONTENT_PAGE_SIZE);
  /** Like getAllContents with pages of 1000: only for the built-in service. */
  const getAll = pagedReader(CONTENT_GET_ALL_PAGE_SIZE);

  async function create<T extends object>({
    endpoint,
    contentId,
    content,
    isDraft = false,
    isClosed = false,
    customRequestInit,
  }: CreateRequest<T>): Promise<WriteResult> {
    if (!endpoint) return missingEndpoint();
    if (isDraft && isClosed) {
      return Promise.reject(new Error('isClosed and isDraft cannot be true at the same time'));
    }
    const queries: ContentQueries = isDraft
      ? { status: 'draft' }
      : isClosed
        ? { status: 'closed' }
        : {};
    return (
      await makeRequest({
        endpoint,
        contentId,
        queries,
        method: contentId ? 'PUT' : 'POST',
        body: content,
        customRequestInit,
      })
    ).value as WriteResult;
  }

  async function update<T extends object>({
    endpoint,
    contentId,
    content,
    isDraft = false,
    customRequestInit,
  }: UpdateRequest<T>): Promise<WriteResult> {
    if (!endpoint) return missingEndpoint();
    return (
      await makeRequest({
        endpoint,
        contentId,
        queries: isDraft ? { status: 'draft' } : {},
        method: 'PATCH',
        body: content,
        customRequestInit,
      })
    ).value as WriteResult;
  }

  async function deleteContent({
    endpoint,
    contentId,
    customRequestInit,
  }: DeleteRequest): Promise<void> {
    if (!endpoint) return missingEndpoint();
    if (!contentId) return missingContentId();
    await makeRequest({ endpoint, contentId, method: 'DELETE', customRequestInit });
  }

  return {
    get,
    getList,
    getListDetail,
    getObject,
    getAllContentIds,
    getAllContents,
    getAll,
    create,
    update,
    delete: deleteContent,
  };
}

export type ContentClient = ReturnType<typeof createContentClient>;

// fields=id leaves only the id, so the full list schema with system fields would not fit.
const freePlanSchema = z.object({ contents: z.array(z.object({ id: z.string().min(1) })) });

/** Ids of the posts a free-plan member may read in full (public-preview posts are open anyway). */
export async function getFreePlanPostIds(
  client: Pick<ContentClient, 'get'>,
  customRequestInit?: CustomRequestInit,
): Promise<string[]> {
  const { contents } = await client.get({
    endpoint: 'posts',
    queries: {
      limit: FREE_PLAN_POST_LIMIT,
      fields: 'id',
      filters: MEMBERS_POSTS_FILTER,
    },
    customRequestInit,
    schema: freePlanSchema,
  });
  return contents.map((post) => post.id);
}
