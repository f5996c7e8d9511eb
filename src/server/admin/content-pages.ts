import 'server-only';
import { notFound, redirect } from 'next/navigation';
import type {
  ContentListProps,
  EditorProps,
  HistoryProps,
  ReferenceOption,
} from '@/lib/admin-content';
import { consolePaths } from '@/lib/admin-content';
import { consoleTarget } from '@/server/cms/console/console-http';
import { loadVersionHistory } from '@/server/cms/console/history';
import {
  CONSOLE_PAGE_SIZE,
  countByEndpoint,
  listConsoleItems,
  loadEditorItem,
  lookupItems,
  titleFieldOf,
} from '@/server/cms/console/items';
import { parseContentListQuery } from '@/server/cms/console/list-query';
import { CONTENT_MODEL, type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { usesBuiltInContent } from '@/server/content/site-content';
import { getDb } from '@/server/db/client';
import { requireRole } from '@/server/identity/session';

/**
 * What the content console's pages (src/app/admin/content/**) read: every item in every state,
 * drafts included, so each function starts by requiring a staff role. Pages cannot reach the
 * store themselves (eslint), and nothing here can be called without the check.
 */

type SearchParams = Record<string, string | string[] | undefined>;

/** The staff gate plus a content-model endpoint and id; anything else is the 404 page. */
async function target(endpointName: string, idSegment?: string) {
  await requireRole('editor', 'admin');
  const found = consoleTarget(endpointName, idSegment);
  if (!found || !usesBuiltInContent()) notFound();
  return found;
}

/** For page titles: the endpoint's label, without looking at the viewer (metadata runs first). */
export function endpointLabel(endpoint: string): string {
  return findEndpoint(endpoint)?.label ?? 'コンテンツ';
}

export type ContentHome =
  | { builtIn: false }
  | {
      builtIn: true;
      kinds: { def: EndpointDef; total: number; drafts: number; scheduled: number }[];
    };

export async function contentHome(): Promise<ContentHome> {
  await requireRole('editor', 'admin');
  if (!usesBuiltInContent()) return { builtIn: false };
  const counts = await countByEndpoint(await getDb());
  return {
    builtIn: true,
    kinds: CONTENT_MODEL.map((def) => ({
      def,
      ...(counts.get(def.endpoint) ?? { total: 0, drafts: 0, scheduled: 0 }),
    })),
  };
}

export async function contentListPage(
  endpointName: string,
  params: SearchParams,
): Promise<ContentListProps> {
  const { def } = await target(endpointName);
  if (def.kind === 'object') redirect(consolePaths.edit(def.endpoint, ''));
  const query = parseContentListQuery(params);
  const db = await getDb();
  const categories: ReferenceOption[] | null = def.fields.some(
    (f) => f.id === 'category' && f.endpoint === 'categories',
  )
    ? await lookupItems(db, findEndpoint('categories')!, { q: '' }, 100)
    : null;
  const { rows, totalCount } = await listConsoleItems(db, def, query);
  return { def, rows, totalCount, perPage: CONSOLE_PAGE_SIZE, query, categories };
}

export async function newItemPage(endpointName: string): Promise<EditorProps> {
  const { def } = await target(endpointName);
  if (def.kind === 'object') redirect(consolePaths.edit(def.endpoint, ''));
  return { def, item: (await loadEditorItem(await getDb(), def, ''))! };
}

export async function editItemPage(
  endpointName: string,
  idSegment: string,
): Promise<EditorProps & { title: string }> {
  const { def, id } = await target(endpointName, idSegment);
  const item = await loadEditorItem(await getDb(), def, id);
  if (!item) notFound();
  const titleField = titleFieldOf(def);
  const value = titleField ? item.fields[titleField] : undefined;
  return { def, item, title: typeof value === 'string' ? value : '' };
}

export async function historyPage(
  endpointName: string,
  idSegment: string,
  params: SearchParams,
): Promise<HistoryProps> {
  const { def, id } = await target(endpointName, idSegment);
  const history = await loadVersionHistory(await getDb(), def, id, params);
  if (!history) notFound();
  return history;
}
