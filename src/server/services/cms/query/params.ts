import 'server-only';
import { AppError } from '@/lib/errors';
import { FilterSyntaxError, parseFilters, type FilterNode } from './filters';
import { CONTENT_ID } from '../content-id';

/**
 * Query parameters of the content API, read the way microCMS reads them
 * (https://document.microcms.io/content-api/get-list-contents):
 * - a parameter that is present but empty is treated as absent (`limit=` gives 10);
 * - unknown parameters are ignored;
 * - a bad value is a QueryError whose message is the exact microCMS error text, which the
 *   HTTP layer returns as `400 { message }`.
 *
 * Our choices where microCMS is silent:
 * - `limit` goes up to 1000, not 100, on purpose: our own site pages through larger lists.
 * - Integers are plain ASCII decimal digits only, so `1e2`, `0x10`, `+5`, ` 5`, `5.0` and
 *   `-0` are rejected instead of being coerced by Number(); leading zeros (`010`) are allowed.
 * - A parameter given twice with different non-empty values (`limit=5&limit=6`) is rejected
 *   rather than silently picking one, so a cache key and the handler cannot disagree.
 * - List items (`orders`, `fields`, `ids`) are not trimmed: `a, b` is rejected, as are empty
 *   items from a stray comma.
 */

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 1_000_000;
export const DEFAULT_DEPTH = 1;
export const MAX_DEPTH = 3;
export const MAX_ORDERS = 5;
export const MAX_FIELDS = 100;
export const MAX_IDS = 1000;
export const MAX_Q_LENGTH = 200;
export const MAX_DRAFT_KEY_LENGTH = 100;

/** Admin display order in microCMS; the content layer decides what it means for us. */
export const SYSTEM_DEFAULT_ORDER = 'system:default';

export type QueryErrorMessage =
  "Invalid 'limit' value." | "Invalid 'offset' value." | 'invalid parameter.';

export class QueryError extends AppError {
  constructor(
    message: QueryErrorMessage,
    /** Which parameter was rejected, for logs; never part of the response. */
    readonly parameter: string,
    options?: { cause?: unknown },
  ) {
    super(message, { status: 400, code: 'invalid-query', cause: options?.cause });
    this.name = 'QueryError';
  }
}

export type RichEditorFormat = 'html' | 'object';

export type OrderKey = { field: string; direction: 'asc' | 'desc' };

// Absent parameters are left undefined rather than null so the store can take these objects
// as they are.
export type DetailQuery = {
  draftKey?: string;
  /** Dot paths split into segments; undefined means every field. */
  fields?: string[][];
  depth: number;
  richEditorFormat: RichEditorFormat;
};

export type ListQuery = DetailQuery & {
  limit: number;
  offset: number;
  /** Undefined means the default order (or relevance when `q` is given). */
  orders?: OrderKey[];
  /** Trimmed and non-empty. */
  q?: string;
  ids?: string[];
  filters?: FilterNode;
};

const INVALID = 'invalid parameter.';
const DIGITS = /^[0-9]+$/;
const FIELD_PATH = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
// A field may start with '-' elsewhere, but not here, where '-' is the direction prefix.
const ORDER_KEY = /^(-?)([A-Za-z0-9_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)$/;

export function parseDetailQuery(params: URLSearchParams): DetailQuery {
  return {
    draftKey: parseDraftKey(single(params, 'draftKey', INVALID)),
    fields: parseFields(single(params, 'fields', INVALID)),
    depth: parseDepth(single(params, 'depth', INVALID)),
    richEditorFormat: parseRichEditorFormat(single(params, 'richEditorFormat', INVALID)),
  };
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  return {
    ...parseDetailQuery(params),
    limit: parseInteger(single(params, 'limit', "Invalid 'limit' value."), {
      name: 'limit',
      fallback: DEFAULT_LIMIT,
      max: MAX_LIMIT,
      message: "Invalid 'limit' value.",
    }),
    offset: parseInteger(single(params, 'offset', "Invalid 'offset' value."), {
      name: 'offset',
      fallback: 0,
      max: MAX_OFFSET,
      message: "Invalid 'offset' value.",
    }),
    orders: parseOrders(single(params, 'orders', INVALID)),
    q: parseQ(single(params, 'q', INVALID)),
    ids: parseIds(single(params, 'ids', INVALID)),
    filters: parseFilterParam(single(params, 'filters', INVALID)),
  };
}

function single(params: URLSearchParams, name: string, message: QueryErrorMessage): string | null {
  const values = new Set(params.getAll(name).filter((value) => value !== ''));
  if (values.size > 1) throw new QueryError(message, name);
  const [value] = values;
  return value ?? null;
}

function parseInteger(
  raw: string | null,
  rule: { name: string; fallback: number; max: number; message: QueryErrorMessage },
): number {
  if (raw === null) return rule.fallback;
  // The length check keeps Number() away from digit strings beyond 2^53.
  if (!DIGITS.test(raw) || raw.length > 16) throw new QueryError(rule.message, rule.name);
  const value = Number(raw);
  if (value > rule.max) throw new QueryError(rule.message, rule.name);
  return value;
}

function parseDepth(raw: string | null): number {
  return parseInteger(raw, {
    name: 'depth',
    fallback: DEFAULT_DEPTH,
    max: MAX_DEPTH,
    message: INVALID,
  });
}

function parseOrders(raw: string | null): OrderKey[] | undefined {
  if (raw === null) return undefined;
  const items = raw.split(',');
  if (items.length > MAX_ORDERS) throw new QueryError(INVALID, 'orders');
  return items.map((item) => {
    if (item === SYSTEM_DEFAULT_ORDER) return { field: item, direction: 'asc' };
    const match = ORDER_KEY.exec(item);
    if (!match?.[2]) throw new QueryError(INVALID, 'orders');
    return { field: match[2], direction: match[1] === '-' ? 'desc' : 'asc' };
  });
}

function parseFields(raw: string | null): string[][] | undefined {
  if (raw === null) return undefined;
  const items = raw.split(',');
  if (items.length > MAX_FIELDS) throw new QueryError(INVALID, 'fields');
  return items.map((item) => {
    if (!FIELD_PATH.test(item)) throw new QueryError(INVALID, 'fields');
    return item.split('.');
  });
}

function parseIds(raw: string | null): string[] | undefined {
  if (raw === null) return undefined;
  const ids = raw.split(',');
  if (ids.length > MAX_IDS || !ids.every((id) => CONTENT_ID.test(id))) {
    throw new QueryError(INVALID, 'ids');
  }
  return ids;
}

function parseQ(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  const q = raw.trim();
  // Counted in code points so the limit means the same for Japanese and emoji.
  if ([...q].length > MAX_Q_LENGTH) throw new QueryError(INVALID, 'q');
  return q === '' ? undefined : q;
}

function parseFilterParam(raw: string | null): FilterNode | undefined {
  if (raw === null) return undefined;
  try {
    return parseFilters(raw);
  } catch (error) {
    if (error instanceof FilterSyntaxError)
      throw new QueryError(INVALID, 'filters', { cause: error });
    throw error;
  }
}

function parseDraftKey(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  if (raw.length > MAX_DRAFT_KEY_LENGTH) throw new QueryError(INVALID, 'draftKey');
  return raw;
}

function parseRichEditorFormat(raw: string | null): RichEditorFormat {
  if (raw === null || raw === 'html') return 'html';
  if (raw === 'object') return raw;
  throw new QueryError(INVALID, 'richEditorFormat');
}
