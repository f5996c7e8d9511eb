import 'server-only';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { ANY_FIELD, type ContentChange, changedFields } from './events';
import { parseListQuery } from './query/params';
import type { FilterNode } from './query/filters';

/**
 * What an answer read of the content, so that a change purges only the answers that read what
 * changed (docs/decisions/044-purge-what-a-change-showed.md): the items it showed, by endpoint
 * and id, found or not, with the items their references expanded; and, per endpoint it listed,
 * the fields its filters and orders look at (a list also shows its items, named in `items`).
 * A list whose shape is not known (a search, fields selected without their ids) depends on
 * every field of its endpoint.
 */
export type ContentReads = {
  items: Set<string>;
  lists: Map<string, Set<string> | typeof ANY_FIELD>;
};

export function emptyReads(): ContentReads {
  return { items: new Set(), lists: new Map() };
}

/** Whether anything was noted (a page that read no content is purged by any change). */
export const hasReads = (reads: ContentReads): boolean =>
  reads.items.size > 0 || reads.lists.size > 0;

const itemKey = (endpoint: string, id: string) => `${endpoint}/${id}`;

function noteList(reads: ContentReads, endpoint: string, fields: Iterable<string> | '*'): void {
  const known = reads.lists.get(endpoint);
  if (known === ANY_FIELD) return;
  if (fields === ANY_FIELD) {
    reads.lists.set(endpoint, ANY_FIELD);
    return;
  }
  const set = known ?? new Set<string>();
  for (const field of fields) set.add(field);
  reads.lists.set(endpoint, set);
}

export function mergeReads(into: ContentReads, from: ContentReads): void {
  for (const item of from.items) into.items.add(item);
  for (const [endpoint, fields] of from.lists) noteList(into, endpoint, fields);
}

function filterFields(node: FilterNode, into: Set<string>): void {
  if (node.kind === 'condition') into.add(node.field.split('.', 1)[0]!);
  else for (const child of node.children) filterFields(child, into);
}

/** An item as the API answered it, and the items its expanded references show. */
function noteItem(reads: ContentReads, def: EndpointDef, value: unknown, level = 0): void {
  if (typeof value !== 'object' || value === null || level > 8) return;
  const item = value as Record<string, unknown>;
  if (def.kind === 'object') reads.items.add(itemKey(def.endpoint, ''));
  else if (typeof item.id === 'string') reads.items.add(itemKey(def.endpoint, item.id));
  // Fields selected without the id: which item this is cannot be told.
  else noteList(reads, def.endpoint, ANY_FIELD);
  for (const field of def.fields) {
    if (field.kind !== 'relation' && field.kind !== 'relationList') continue;
    const ref = findEndpoint(field.endpoint!);
    const inner = item[field.id];
    if (!ref || inner === undefined || inner === null) continue;
    for (const each of Array.isArray(inner) ? inner : [inner])
      noteItem(reads, ref, each, level + 1);
  }
}

/** What a list query looks at, before its answer: its filters, orders, search and ids. */
export function readsOfListQuery(
  endpoint: string,
  query: {
    filters?: FilterNode;
    orders?: readonly { field: string }[];
    q?: string;
    ids?: readonly string[];
  },
): ContentReads {
  const reads = emptyReads();
  if (query.q) noteList(reads, endpoint, ANY_FIELD);
  else {
    const fields = new Set<string>();
    if (query.filters) filterFields(query.filters, fields);
    for (const order of query.orders ?? []) fields.add(order.field);
    noteList(reads, endpoint, fields);
  }
  for (const id of query.ids ?? []) reads.items.add(itemKey(endpoint, id));
  return reads;
}

/**
 * What a GET of the content API read: `/endpoint` (a list, or an object endpoint), or
 * `/endpoint/contentId`, with its query and its answer (undefined when it failed).
 */
export function readsOfAnswer(
  endpoint: string,
  contentId: string | undefined,
  params: URLSearchParams,
  answer: unknown,
): ContentReads {
  const reads = emptyReads();
  const def = findEndpoint(endpoint);
  if (!def) return reads; // an unknown endpoint answers 404 whatever changes
  if (def.kind === 'object' || contentId !== undefined) {
    reads.items.add(itemKey(endpoint, def.kind === 'object' ? '' : (contentId ?? '')));
    noteItem(reads, def, answer);
    return reads;
  }
  try {
    mergeReads(reads, readsOfListQuery(endpoint, parseListQuery(params)));
  } catch {
    noteList(reads, endpoint, ANY_FIELD); // answered 400: nothing to purge, but stay safe
  }
  const contents = (answer as { contents?: unknown } | undefined)?.contents;
  if (Array.isArray(contents)) for (const item of contents) noteItem(reads, def, item);
  return reads;
}

const fieldsMeet = (list: Set<string> | '*', fields: readonly string[] | '*') =>
  list === ANY_FIELD || fields === ANY_FIELD || fields.some((field) => list.has(field));

/** Whether a change may alter an answer that read `reads`. */
export function affects(reads: ContentReads, change: ContentChange): boolean {
  const fields = changedFields(change);
  if (change.endpoint === '*') {
    if (change.id === '*' && fields === ANY_FIELD) return true; // anything may have changed
    for (const list of reads.lists.values()) if (fieldsMeet(list, fields)) return true;
    return false;
  }
  if (change.id === '*') {
    const prefix = `${change.endpoint}/`;
    for (const item of reads.items) if (item.startsWith(prefix)) return true;
  } else if (reads.items.has(itemKey(change.endpoint, change.id))) return true;
  const list = reads.lists.get(change.endpoint);
  if (!list) return false;
  // An item coming or going changes which items a list holds and its count.
  if (change.membership !== false) return true;
  return fieldsMeet(list, fields);
}
