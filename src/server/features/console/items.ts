import 'server-only';
import { type SQL, and, eq, sql } from 'drizzle-orm';
import type {
  ContentListQuery,
  ContentListRow,
  EditorItem,
  ReferenceOption,
} from '@/lib/admin-content';
import type { SubmissionState } from '@/lib/access/console-permissions';
import type { Db } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import { likeContaining } from '@/server/platform/db/paging';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { actorLabels } from './actors';
import { env } from '@/env';
import { ITEM_PATH_PREFIXES } from '@/lib/cms/item-paths';
import { canRename } from '@/server/services/cms/rename';
import { redirectsTo } from '@/server/services/cms/redirects';
import { previewPath, publicPath } from './site-urls';
import { consoleStatusOf, statusCondition } from './status';
import { submissionState } from './submission-state';
import { newId } from '@/server/services/cms/writes';

/**
 * What the console reads: every item of an endpoint whatever its state (drafts, scheduled,
 * closed), its working copy (the draft if there is one), and the labels of what it refers to.
 * Straight from cms_contents, never through the site's caches, so an editor sees their own
 * write at once.
 */

export const CONSOLE_PAGE_SIZE = 20;

const WORKING_COPY = sql`coalesce(draft_data, data)`;

/** The field an item is named by in lists and pickers: its title, else its name. */
export function titleFieldOf(def: EndpointDef): string | null {
  return def.fields.find((f) => f.id === 'title' || f.id === 'name')?.id ?? null;
}

function titleExpression(def: EndpointDef, copy: SQL = WORKING_COPY): SQL {
  const field = titleFieldOf(def);
  return field ? sql`coalesce(${copy}->>${field}, '')` : sql`''`;
}

/** One of these ids (never empty: callers answer an empty choice themselves). */
const idIn = (ids: readonly string[]): SQL =>
  sql`id IN (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/** An item's id, title and what its console status is read from (consoleStatusOf). */
const statusColumns = (title: SQL) => ({
  id: cmsContents.id,
  title: sql<string>`${title}`,
  status: cmsContents.status,
  scheduledAt: cmsContents.scheduledAt,
});

export async function listConsoleItems(
  db: Db,
  def: EndpointDef,
  query: ContentListQuery,
  options: { pageSize?: number; authorId?: string; ids?: string[] } = {},
): Promise<{ rows: ContentListRow[]; totalCount: number }> {
  const pageSize = options.pageSize ?? CONSOLE_PAGE_SIZE;
  const title = titleExpression(def);
  const conditions: SQL[] = [sql`endpoint = ${def.endpoint}`];
  if (options.authorId) conditions.push(authoredBy(options.authorId));
  if (options.ids) conditions.push(idIn(options.ids));
  if (query.q) conditions.push(sql`(${title} ILIKE ${likeContaining(query.q)} OR id = ${query.q})`);
  if (query.status) conditions.push(statusCondition(query.status));
  if (query.category && def.fields.some((f) => f.id === 'category'))
    conditions.push(sql`${WORKING_COPY}->>'category' = ${query.category}`);
  const where = sql.join(conditions, sql` AND `);
  const order: Record<ContentListQuery['sort'], SQL> = {
    updated: sql`updated_at DESC`,
    published: sql`published_at DESC NULLS LAST`,
    created: sql`created_at DESC`,
    title: sql`${title} ASC`,
  };
  const [counted] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(cmsContents)
    .where(where);
  const rows = await db
    .select({
      ...statusColumns(title),
      updatedAt: cmsContents.updatedAt,
      publishedAt: cmsContents.publishedAt,
      updatedBy: cmsContents.updatedBy,
      review: sql<SubmissionState | null>`(SELECT ${submissionState(sql`cms_contents.published_at`, sql`s.state`)} FROM cms_submissions s WHERE s.endpoint = cms_contents.endpoint AND s.content_id = cms_contents.id)`,
    })
    .from(cmsContents)
    .where(where)
    .orderBy(order[query.sort], sql`id ASC`)
    .limit(pageSize)
    .offset((query.page - 1) * pageSize);
  const labels = await actorLabels(
    db,
    rows.map((r) => r.updatedBy),
  );
  return {
    totalCount: Number(counted?.count ?? 0),
    rows: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: consoleStatusOf(row),
      scheduledAt: row.scheduledAt?.toISOString() ?? null,
      updatedAt: row.updatedAt.toISOString(),
      publishedAt: row.publishedAt?.toISOString() ?? null,
      updatedBy: row.updatedBy ? (labels.get(row.updatedBy) ?? null) : null,
      review: row.review ?? null,
    })),
  };
}

/** The reference pickers' search: by title or id, or the given ids (labels of chosen items). */
export async function lookupItems(
  db: Db,
  def: EndpointDef,
  search: { q?: string; ids?: string[]; publishedOnly?: boolean },
  limit = 20,
): Promise<ReferenceOption[]> {
  // Published only (a contributor): found and named by what the site shows, never by an
  // unpublished revision someone else is writing.
  const title = titleExpression(def, search.publishedOnly ? sql`data` : WORKING_COPY);
  const conditions: SQL[] = [sql`endpoint = ${def.endpoint}`];
  if (search.publishedOnly) conditions.push(sql`data IS NOT NULL AND status <> 'CLOSED'`);
  if (search.ids) {
    if (search.ids.length === 0) return [];
    conditions.push(idIn(search.ids));
  } else if (search.q) {
    conditions.push(sql`(${title} ILIKE ${likeContaining(search.q)} OR id = ${search.q})`);
  }
  const rows = await db
    .select(statusColumns(title))
    .from(cmsContents)
    .where(sql.join(conditions, sql` AND `))
    .orderBy(sql`updated_at DESC`, sql`id ASC`)
    .limit(search.ids ? search.ids.length : limit);
  const found = rows.map((row) => ({
    id: row.id,
    label: row.title || row.id,
    status: search.publishedOnly ? ('published' as const) : consoleStatusOf(row),
  }));
  // Chosen items keep the order they were chosen in.
  return search.ids ? search.ids.flatMap((id) => found.filter((f) => f.id === id)) : found;
}

export type StoredItem = typeof cmsContents.$inferSelect;

export async function findItem(db: Db, def: EndpointDef, id: string): Promise<StoredItem | null> {
  const [row] = await db
    .select()
    .from(cmsContents)
    .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, id)));
  return row ?? null;
}

/** Where the item stands, as every console answer reports it. */
export function itemState(def: EndpointDef, row: StoredItem) {
  const status = consoleStatusOf(row);
  return {
    status,
    updatedAt: row.updatedAt.toISOString(),
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    previewUrl: status === 'published' ? null : previewPath(def.endpoint, row.id, row.draftKey),
    publicUrl: row.data && row.status !== 'CLOSED' ? publicPath(def.endpoint, row.id) : null,
  };
}

/** The editor's id field of a list item (a new one is offered a random id). */
async function slugField(db: Db, def: EndpointDef, id: string): Promise<EditorItem['slug']> {
  if (def.kind !== 'list') return undefined;
  const prefix = ITEM_PATH_PREFIXES[def.endpoint];
  return {
    urlPrefix: prefix ? `${env().SITE_URL.replace(/\/$/, '')}${prefix}` : null,
    suggestion: id ? '' : newId(),
    renamable: canRename(def),
    previousIds: id ? await redirectsTo(db, def.endpoint, id) : [],
  };
}

/** The editor's item: the stored one, or an empty one for a new list item / unset object. */
export async function loadEditorItem(
  db: Db,
  def: EndpointDef,
  id: string,
): Promise<EditorItem | null> {
  const row = id || def.kind === 'object' ? await findItem(db, def, id) : null;
  if (!row) {
    if (id && def.kind === 'list') return null;
    return {
      endpoint: def.endpoint,
      id,
      isNew: true,
      fields: {},
      status: 'draft',
      updatedAt: null,
      scheduledAt: null,
      publishedAt: null,
      previewUrl: null,
      publicUrl: null,
      references: {},
      slug: await slugField(db, def, ''),
    };
  }
  const fields = { ...(row.draftData ?? row.data ?? {}) };
  const references: Record<string, ReferenceOption[]> = {};
  for (const field of def.fields) {
    if ((field.kind !== 'relation' && field.kind !== 'relationList') || !field.endpoint) continue;
    const refDef = findEndpoint(field.endpoint);
    const value = fields[field.id];
    const ids = Array.isArray(value)
      ? (value as string[])
      : typeof value === 'string'
        ? [value]
        : [];
    if (!refDef || ids.length === 0) continue;
    const found = await lookupItems(db, refDef, { ids });
    const known = references[field.endpoint] ?? [];
    references[field.endpoint] = [
      ...known,
      ...found.filter((f) => !known.some((k) => k.id === f.id)),
    ];
  }
  return {
    endpoint: def.endpoint,
    id: row.id,
    isNew: false,
    fields,
    references,
    slug: await slugField(db, def, row.id),
    ...itemState(def, row),
  };
}

/** A contributor's own items (src/server/features/console/submissions.ts). */
const authoredBy = (authorId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM cms_submissions s WHERE s.endpoint = cms_contents.endpoint AND s.content_id = cms_contents.id AND s.author_id = ${authorId})`;

/**
 * Per endpoint: how many items, how many drafts and how many scheduled (the console's start),
 * of one contributor's items when `authorId` is given.
 */
export async function countByEndpoint(
  db: Db,
  authorId?: string,
): Promise<Map<string, { total: number; drafts: number; scheduled: number }>> {
  const rows = await db
    .select({
      endpoint: cmsContents.endpoint,
      total: sql<number>`count(*)::int`,
      drafts: sql<number>`(count(*) FILTER (WHERE status <> 'PUBLISH'))::int`,
      scheduled: sql<number>`(count(*) FILTER (WHERE scheduled_at IS NOT NULL))::int`,
    })
    .from(cmsContents)
    .where(authorId ? authoredBy(authorId) : undefined)
    .groupBy(cmsContents.endpoint);
  return new Map(
    rows.map((row) => [
      row.endpoint,
      { total: Number(row.total), drafts: Number(row.drafts), scheduled: Number(row.scheduled) },
    ]),
  );
}
