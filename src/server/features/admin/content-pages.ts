import 'server-only';
import { notFound, redirect } from 'next/navigation';
import {
  BULK_ACTIONS,
  type BulkConfirmProps,
  type ContentListProps,
  type EditorAccess,
  type EditorProps,
  type HistoryProps,
  type ReferenceOption,
} from '@/lib/admin-content';
import {
  CONSOLE_PAGE_SIZE,
  consoleTarget,
  countByEndpoint,
  countInReview,
  editorsByItem,
  findSubmission,
  listConsoleItems,
  loadEditorItem,
  loadVersionHistory,
  lookupItems,
  MAX_BULK_ITEMS,
  ownershipOf,
  parseContentListQuery,
  titleFieldOf,
} from '@/server/features/console';
import { CONTENT_ID, usesBuiltInContent } from '@/server/features/content';
import { consolePaths } from '@/lib/admin-content';
import { currentIds } from '@/server/services/cms/redirects';
import { CONTENT_MODEL, type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { getDb } from '@/server/platform/db/client';
import { type AppUser, getUser } from '@/server/features/identity';
import { CONTRIBUTOR_ENDPOINTS, can, mayEdit, mayRead } from '@/lib/access/console-permissions';

/**
 * What the content console's pages (src/app/admin/content/**) read: every item in every state,
 * drafts included, so each function starts by asking the console's allow-list
 * (src/lib/access/console-permissions.ts): staff see everything, a contributor their own
 * items of the contributor endpoints only. Pages cannot reach the store themselves (eslint),
 * and nothing here can be called without the check.
 */

type SearchParams = Record<string, string | string[] | undefined>;

/** Someone the console lets in (staff or a contributor); anyone else sees the 404 page. */
export async function requireConsoleUser(): Promise<AppUser> {
  const user = await getUser();
  if (!user || !can(user.role, 'console')) notFound();
  return user;
}

/** The console gate plus a content-model endpoint and id; anything else is the 404 page. */
async function target(endpointName: string, idSegment?: string) {
  const user = await requireConsoleUser();
  const found = consoleTarget(endpointName, idSegment);
  if (!found || !usesBuiltInContent()) notFound();
  const staff = can(user.role, 'content:edit-any');
  if (!staff && !CONTRIBUTOR_ENDPOINTS.includes(found.def.endpoint)) notFound();
  return { ...found, user, staff };
}

/** For page titles: the endpoint's label, without looking at the viewer (metadata runs first). */
export function endpointLabel(endpoint: string): string {
  return findEndpoint(endpoint)?.label ?? 'コンテンツ';
}

export type ContentHome =
  | { builtIn: false }
  | {
      builtIn: true;
      kinds: {
        def: EndpointDef;
        total: number;
        drafts: number;
        scheduled: number;
        /** Contributors' items waiting for an editor (0 for a contributor's own view). */
        inReview: number;
      }[];
    };

export async function contentHome(): Promise<ContentHome> {
  const user = await requireConsoleUser();
  if (!usesBuiltInContent()) return { builtIn: false };
  const db = await getDb();
  const staff = can(user.role, 'content:edit-any');
  const counts = await countByEndpoint(db, staff ? undefined : user.id);
  const inReview = staff ? await countInReview(db) : new Map<string, number>();
  return {
    builtIn: true,
    kinds: CONTENT_MODEL.filter((def) => staff || CONTRIBUTOR_ENDPOINTS.includes(def.endpoint)).map(
      (def) => ({
        def,
        ...(counts.get(def.endpoint) ?? { total: 0, drafts: 0, scheduled: 0 }),
        inReview: inReview.get(def.endpoint) ?? 0,
      }),
    ),
  };
}

export async function contentListPage(
  endpointName: string,
  params: SearchParams,
): Promise<ContentListProps> {
  const { def, user, staff } = await target(endpointName);
  if (def.kind === 'object') redirect(consolePaths.edit(def.endpoint, ''));
  const query = parseContentListQuery(params);
  const db = await getDb();
  const categories: ReferenceOption[] | null = def.fields.some(
    (f) => f.id === 'category' && f.endpoint === 'categories',
  )
    ? await lookupItems(db, findEndpoint('categories')!, { q: '' }, 100)
    : null;
  const { rows, totalCount } = await listConsoleItems(db, def, query, {
    authorId: staff ? undefined : user.id,
  });
  // Who else has these rows open (only rows the viewer may see, so nothing more is learnt).
  const editing = await editorsByItem(
    db,
    def.endpoint,
    rows.map((row) => row.id),
    user.id,
    new Date(),
  );
  return {
    def,
    rows: rows.map((row) => ({
      ...row,
      editing: editing.get(row.id)?.map((entry) => entry.name) ?? [],
    })),
    totalCount,
    perPage: CONSOLE_PAGE_SIZE,
    query,
    categories,
    bulk: can(user.role, 'content:bulk'),
  };
}

/**
 * The bulk action's confirmation screen (?action=&ids=…): the chosen items as they are now.
 * Staff only; an unknown action or no valid id goes back to the list.
 */
export async function bulkConfirmPage(
  endpointName: string,
  params: SearchParams,
): Promise<BulkConfirmProps> {
  const { def, user } = await target(endpointName);
  if (!can(user.role, 'content:bulk') || def.kind !== 'list') notFound();
  const action = BULK_ACTIONS.find((a) => a === params.action);
  const asked = [params.ids ?? []].flat().filter((id) => CONTENT_ID.test(id));
  const ids = [...new Set(asked)].slice(0, MAX_BULK_ITEMS);
  if (!action || ids.length === 0) redirect(consolePaths.list(def.endpoint));
  const { rows } = await listConsoleItems(
    await getDb(),
    def,
    { q: '', status: '', category: '', sort: 'updated', page: 1 },
    { pageSize: MAX_BULK_ITEMS, ids },
  );
  return { def, action, rows, missing: ids.filter((id) => !rows.some((r) => r.id === id)) };
}

export async function newItemPage(endpointName: string): Promise<EditorProps> {
  const { def, user } = await target(endpointName);
  if (def.kind === 'object') redirect(consolePaths.edit(def.endpoint, ''));
  if (!mayEdit(user, def.endpoint, 'new')) notFound();
  return {
    def,
    item: (await loadEditorItem(await getDb(), def, ''))!,
    canPublish: can(user.role, 'content:publish'),
  };
}

export async function editItemPage(
  endpointName: string,
  idSegment: string,
): Promise<EditorProps & { title: string; access: EditorAccess }> {
  const { def, id, user } = await target(endpointName, idSegment);
  const db = await getDb();
  const owner = await ownershipOf(db, def.endpoint, id);
  if (!mayRead(user, def.endpoint, owner)) notFound();
  const item = await loadEditorItem(db, def, id);
  if (!item) {
    // A bookmark or an open tab of an item renamed since: the editor of what it is now.
    const renamed = (await currentIds(db, def.endpoint, [id])).get(id);
    if (renamed) redirect(consolePaths.edit(def.endpoint, renamed));
    notFound();
  }
  const titleField = titleFieldOf(def);
  const value = titleField ? item.fields[titleField] : undefined;
  const submission = owner ? await findSubmission(db, def.endpoint, id) : null;
  return {
    def,
    item,
    title: typeof value === 'string' ? value : '',
    access: {
      publish: can(user.role, 'content:publish'),
      save: mayEdit(user, def.endpoint, owner),
      submission: submission
        ? {
            state: submission.state,
            reviewComment: submission.reviewComment,
            submittedAt: submission.submittedAt?.toISOString() ?? null,
            mine: submission.authorId === user.id,
          }
        : null,
    },
  };
}

export async function historyPage(
  endpointName: string,
  idSegment: string,
  params: SearchParams,
): Promise<HistoryProps> {
  const { def, id, user } = await target(endpointName, idSegment);
  const db = await getDb();
  if (!mayRead(user, def.endpoint, await ownershipOf(db, def.endpoint, id))) notFound();
  const history = await loadVersionHistory(db, def, id, params);
  if (!history) notFound();
  return history;
}
