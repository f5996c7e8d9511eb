import 'server-only';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import {
  ANY_FIELD,
  type ContentChange,
  changeNarrows,
  changedFields,
  recentChanges,
} from './events';
import { parseDetailQuery, parseListQuery } from './query/params';
import type { FilterNode } from './query/filters';

/**
 * What an answer read of the content, so that a change purges only the answers that read what
 * changed (docs/decisions/044-purge-what-a-change-showed.md): the items it showed, by endpoint
 * and id, found or not, with the items their references expanded, each with the fields the
 * answer carried of it (its `fields` selection, or any field); and, per endpoint it listed, the
 * fields its filters and orders look at (a list also shows its items, named in `items`).
 * A list whose shape is not known (a search, fields selected without their ids) depends on
 * every field of its endpoint.
 */
export type ContentReads = {
  items: Map<string, FieldsRead>;
  lists: Map<string, FieldsRead>;
};
type FieldsRead = Set<string> | typeof ANY_FIELD;

export function emptyReads(): ContentReads {
  return { items: new Map(), lists: new Map() };
}

/** Whether anything was noted (a page that read no content is purged by any change). */
export const hasReads = (reads: ContentReads): boolean =>
  reads.items.size > 0 || reads.lists.size > 0;

const itemKey = (endpoint: string, id: string) => `${endpoint}/${id}`;

/** Adds `fields` to what `into` holds for `key`, in a set of its own (a cached answer's stay its). */
function noteFields(
  into: Map<string, FieldsRead>,
  key: string,
  fields: Iterable<string> | typeof ANY_FIELD,
): void {
  const known = into.get(key);
  if (known === ANY_FIELD) return;
  if (fields === ANY_FIELD) {
    into.set(key, ANY_FIELD);
    return;
  }
  const set = known ?? new Set<string>();
  for (const field of fields) set.add(field);
  into.set(key, set);
}

const noteList = (
  reads: ContentReads,
  endpoint: string,
  fields: Iterable<string> | typeof ANY_FIELD,
) => noteFields(reads.lists, endpoint, fields);

/**
 * A `fields` selection as a tree: each field selected whole (`*`), or with the fields selected
 * of the item it references (`category.name`). `*` alone: every field.
 */
type Selection = Map<string, Selection> | typeof ANY_FIELD;

function selectionOf(paths: readonly string[][] | undefined): Selection {
  if (!paths) return ANY_FIELD;
  const tree = new Map<string, Selection>();
  for (const [field, ...rest] of paths) {
    if (field === undefined) continue;
    const known = tree.get(field);
    if (rest.length === 0) tree.set(field, ANY_FIELD);
    else if (known === undefined) tree.set(field, selectionOf([rest]));
    else if (known !== ANY_FIELD)
      for (const [name, sub] of selectionOf([rest]) as Map<string, Selection>) known.set(name, sub);
  }
  return tree;
}

const fieldsOf = (selection: Selection): readonly string[] | typeof ANY_FIELD =>
  selection === ANY_FIELD ? ANY_FIELD : [...selection.keys()];

/** The request's `fields` as a selection; every field when they cannot be read. */
function requestSelection(params: URLSearchParams): Selection {
  try {
    return selectionOf(parseDetailQuery(params).fields);
  } catch {
    return ANY_FIELD; // answered 400: nothing to purge, but stay safe
  }
}

export function mergeReads(into: ContentReads, from: ContentReads): void {
  for (const [item, fields] of from.items) noteFields(into.items, item, fields);
  for (const [endpoint, fields] of from.lists) noteList(into, endpoint, fields);
}

function filterFields(node: FilterNode, into: Set<string>): void {
  if (node.kind === 'condition') into.add(node.field.split('.', 1)[0]!);
  else for (const child of node.children) filterFields(child, into);
}

/**
 * An item as the API answered it, with the fields `selection` carried of it, and the items its
 * expanded references show.
 */
function noteItem(
  reads: ContentReads,
  def: EndpointDef,
  value: unknown,
  selection: Selection,
  level = 0,
): void {
  if (typeof value !== 'object' || value === null || level > 8) return;
  const item = value as Record<string, unknown>;
  const fields = fieldsOf(selection);
  if (def.kind === 'object') noteFields(reads.items, itemKey(def.endpoint, ''), fields);
  else if (typeof item.id === 'string')
    noteFields(reads.items, itemKey(def.endpoint, item.id), fields);
  // Fields selected without the id: which item this is cannot be told.
  else noteList(reads, def.endpoint, ANY_FIELD);
  for (const field of def.fields) {
    if (field.kind !== 'relation' && field.kind !== 'relationList') continue;
    const ref = findEndpoint(field.endpoint!);
    const inner = item[field.id];
    const innerSelection = selection === ANY_FIELD ? ANY_FIELD : selection.get(field.id);
    // Not selected (then not in the answer either), or not expanded.
    if (!ref || innerSelection === undefined || inner === undefined || inner === null) continue;
    for (const each of Array.isArray(inner) ? inner : [inner])
      noteItem(reads, ref, each, innerSelection, level + 1);
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
    fields?: readonly string[][];
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
  const selected = fieldsOf(selectionOf(query.fields));
  for (const id of query.ids ?? []) noteFields(reads.items, itemKey(endpoint, id), selected);
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
  const selection = requestSelection(params);
  if (def.kind === 'object' || contentId !== undefined) {
    const key = itemKey(endpoint, def.kind === 'object' ? '' : (contentId ?? ''));
    noteFields(reads.items, key, fieldsOf(selection));
    noteItem(reads, def, answer, selection);
    return reads;
  }
  try {
    mergeReads(reads, readsOfListQuery(endpoint, parseListQuery(params)));
  } catch {
    noteList(reads, endpoint, ANY_FIELD); // answered 400: nothing to purge, but stay safe
  }
  const contents = (answer as { contents?: unknown } | undefined)?.contents;
  if (Array.isArray(contents)) for (const item of contents) noteItem(reads, def, item, selection);
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
    for (const item of reads.items.keys()) if (item.startsWith(prefix)) return true;
  } else {
    const item = reads.items.get(itemKey(change.endpoint, change.id));
    // The item came or went, or a field the answer carried of it changed.
    if (item && (change.membership !== false || fieldsMeet(item, fields))) return true;
  }
  const list = reads.lists.get(change.endpoint);
  if (!list) return false;
  // An item coming or going changes which items a list holds and its count.
  if (change.membership !== false) return true;
  return fieldsMeet(list, fields);
}

/**
 * What changed of `reads` since change `since` (recentChanges.seq when the read began): nothing,
 * only edits that narrow nothing (`edited`: what was read may show either version), or a change
 * that narrows (`narrowed`: nothing of it may be kept). Reads that noted nothing are affected by
 * every change, and so is everything when the log no longer reaches back to `since`.
 */
export function changedSince(
  since: number,
  reads: ContentReads,
): 'nothing' | 'edited' | 'narrowed' {
  const known = hasReads(reads);
  const affected = (change: ContentChange) => !known || affects(reads, change);
  if (!recentChanges.since(since, affected)) return 'nothing';
  return recentChanges.since(since, (change) => changeNarrows(change) && affected(change))
    ? 'narrowed'
    : 'edited';
}
