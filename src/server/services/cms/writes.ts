import 'server-only';
import { randomBytes } from 'node:crypto';
import { type SQL, and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import type { VersionAction } from '@/lib/admin-content';
import { ContentConflict, badRequest } from './errors';
import { canExist } from './content-id';
import { emitContentChange } from './events';
import { publishedEdit } from './change';
import { CONTENT_MODEL, type EndpointDef } from '@/lib/cms/model';
import { indexReadingsLater, searchColumns, searchColumnsNow } from './search-index';
import { type StoredData, type ValidatedWrite, checkRequired, validateWrite } from './values';
import { claimId, currentIds, dropRedirectsTo } from './redirects';
import { slugProblem } from '@/lib/cms/slug';
import { deleteVersions, recordVersion } from './versions';
import { runItemHooks } from './item-hooks';
import { type ContentStatus, idIn, isPublicStatus } from './store';

/**
 * Writing the content service's items with microCMS's statuses: create, update (PATCH),
 * publish, unpublish, schedule and delete, each in one transaction that records the item's
 * version, then tells the caches what changed (events.ts). Reading is store.ts.
 */

/** Who writes, for the item's history and the console's conflict check. */
export type WriteContext = {
  /** `user:<id>` (console), `key:<id>` (content API) or `system`. */
  actor: string;
  /** The version's label; defaults to the operation's own (create, save, publish…). */
  action?: VersionAction;
  /** The `updatedAt` the writer started from: a write over a newer one is a ContentConflict. */
  expectedUpdatedAt?: string;
  /**
   * Answer before the readings of the kanji are indexed (search-index.ts searchColumnsNow):
   * a person's write (the console, the content API) does not wait seconds for the analyser.
   */
  readingsLater?: boolean;
};

/** The search columns of a write's published data, as its context asks. */
const columnsFor = (def: EndpointDef, data: StoredData | null, ctx: WriteContext) =>
  ctx.readingsLater ? searchColumnsNow(def, data) : searchColumns(def, data);

export const SYSTEM_WRITE: WriteContext = { actor: 'system' };

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type StoredRow = typeof cmsContents.$inferSelect;

/** Writes `changes` to the locked row, then records what it now holds as the next version. */
async function updateRow(
  tx: Tx,
  def: EndpointDef,
  row: StoredRow,
  changes: Partial<typeof cmsContents.$inferInsert>,
  action: VersionAction,
  ctx: WriteContext,
  now: Date,
): Promise<void> {
  await tx
    .update(cmsContents)
    .set(changes)
    .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, row.id)));
  await recordRow(tx, def, { ...row, ...changes }, action, ctx, now);
}

/** microCMS's answer to a write of an item that does not exist. */
const missing = () => badRequest('Content is not exists.', 'content-not-found');

/** The row, locked for the rest of the transaction, after the console's conflict check. */
export async function lockRow(tx: Tx, def: EndpointDef, id: string, ctx: WriteContext) {
  const [row] = await tx
    .select()
    .from(cmsContents)
    .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, id)))
    .for('update');
  if (row && ctx.expectedUpdatedAt !== undefined) {
    const stored = row.updatedAt.toISOString();
    if (stored !== ctx.expectedUpdatedAt) throw new ContentConflict(stored, row.updatedBy);
  }
  return row;
}

/** Records what the row now holds as the item's next version. */
export function recordRow(
  tx: Tx,
  def: EndpointDef,
  row: Pick<StoredRow, 'id' | 'status' | 'data' | 'draftData'>,
  action: VersionAction,
  ctx: WriteContext,
  now: Date,
) {
  return recordVersion(
    tx,
    {
      endpoint: def.endpoint,
      contentId: row.id,
      data: row.draftData ?? row.data,
      status: row.status,
      action: ctx.action ?? action,
      actor: ctx.actor,
    },
    now,
  );
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A random id, as items get when none is chosen (also the editor's suggestion). */
export function newId(length = 12): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}
const newDraftKey = () => randomBytes(9).toString('base64url');

/**
 * Checks that every referenced item exists. A reference to an id an item was renamed from
 * (an editor's form or an API client still holding it, or an older version restored) is
 * written as the item's current id; only a miss looks the redirects up.
 */
async function resolveReferences(db: Db, def: EndpointDef, write: ValidatedWrite): Promise<void> {
  for (const [endpoint, ids] of write.references) {
    if (ids.size === 0) continue;
    const found = await db
      .select({ id: cmsContents.id })
      .from(cmsContents)
      .where(and(eq(cmsContents.endpoint, endpoint), idIn(ids)));
    const existing = new Set(found.map((f) => f.id));
    const absent = [...ids].filter((id) => !existing.has(id));
    if (absent.length === 0) continue;
    const renamed = await currentIds(db, endpoint, absent);
    const missing = absent.find((id) => !renamed.has(id));
    if (missing !== undefined) {
      throw badRequest(
        `Referenced content does not exist: '${missing}' in '${endpoint}'.`,
        'content-missing-reference',
      );
    }
    for (const field of def.fields) {
      if (field.endpoint !== endpoint) continue;
      const value = write.set[field.id];
      const follow = (id: string) => renamed.get(id) ?? id;
      if (typeof value === 'string') write.set[field.id] = follow(value);
      else if (Array.isArray(value))
        write.set[field.id] = [...new Set((value as string[]).map(follow))];
    }
  }
}

export type CreateInput = {
  id?: string;
  body: unknown;
  status: 'publish' | 'draft' | 'closed';
  /** The id is an editor's slug (the console): the stricter rule of src/lib/cms/slug.ts. */
  slug?: boolean;
};

export async function createContent(
  db: Db,
  def: EndpointDef,
  input: CreateInput,
  ctx: WriteContext = SYSTEM_WRITE,
): Promise<{ id: string }> {
  if (def.kind !== 'list') throw badRequest('This API is an object type: use PATCH.');
  if (input.id !== undefined && !canExist(def, input.id))
    throw badRequest('Invalid content id format.');
  if (input.slug && input.id !== undefined && slugProblem(def.endpoint, input.id))
    throw badRequest('Invalid content id format.', 'content-id-invalid');
  const write = validateWrite(def, input.body, 'create');
  if (write.publishedAt && input.status !== 'publish') {
    throw badRequest(
      `'publishedAt' field error. This field is valid for content that is meant to be published.`,
    );
  }
  await resolveReferences(db, def, write);
  const now = new Date();
  const id = input.id ?? newId();
  const published = input.status === 'publish';
  const values = {
    endpoint: def.endpoint,
    id,
    status: published ? 'PUBLISH' : input.status === 'draft' ? 'DRAFT' : 'CLOSED',
    data: input.status === 'draft' ? null : write.set,
    draftData: input.status === 'draft' ? write.set : null,
    draftKey: input.status === 'draft' ? newDraftKey() : null,
    createdAt: now,
    updatedAt: now,
    publishedAt: published ? new Date(write.publishedAt ?? now) : null,
    revisedAt: published ? now : null,
    updatedBy: ctx.actor,
    ...(await columnsFor(def, published ? write.set : null, ctx)),
  };
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(cmsContents)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: cmsContents.id });
    if (inserted.length === 0) {
      throw badRequest(
        'Content is already exists. If you want update, please use PATCH request.',
        'content-id-taken',
      );
    }
    // A renamed item's old id: taken by a published item, refused to a draft (docs/decisions/033-slugs-and-redirects.md).
    await claimId(tx, def.endpoint, id, { published });
    await recordRow(tx, def, values, 'create', ctx, now);
  });
  // A draft changes no published answer: the caches of readers' pages and answers stay.
  if (input.status !== 'draft') emitContentChange({ endpoint: def.endpoint, id });
  if (published && ctx.readingsLater) indexReadingsLater(db, def, id);
  return { id };
}

function merge(base: StoredData | null, set: StoredData, clear: string[]): StoredData {
  const out: StoredData = { ...(base ?? {}), ...set };
  for (const key of clear) delete out[key];
  return out;
}

/** PATCH, with microCMS's table of statuses (reference: microcms-api.md §2). */
export async function updateContent(
  db: Db,
  def: EndpointDef,
  id: string,
  body: unknown,
  options: { draft: boolean },
  ctx: WriteContext = SYSTEM_WRITE,
): Promise<{ id: string; updatedAt: Date }> {
  if (!canExist(def, id)) throw missing();
  const write = validateWrite(def, body, 'patch');
  await resolveReferences(db, def, write);
  const result = await db.transaction(async (tx) => {
    const row = await lockRow(tx, def, id, ctx);
    const now = new Date();
    if (!row) {
      if (def.kind === 'list') throw missing();
      // An object API's first PATCH creates its content.
      const data = merge(null, write.set, write.clear);
      checkRequired(def, data);
      const values = {
        endpoint: def.endpoint,
        id,
        status: options.draft ? 'DRAFT' : 'PUBLISH',
        data: options.draft ? null : data,
        draftData: options.draft ? data : null,
        draftKey: options.draft ? newDraftKey() : null,
        createdAt: now,
        updatedAt: now,
        publishedAt: options.draft ? null : now,
        revisedAt: options.draft ? null : now,
        updatedBy: ctx.actor,
        ...(await columnsFor(def, options.draft ? null : data, ctx)),
      };
      await tx.insert(cmsContents).values(values);
      await recordRow(tx, def, values, 'create', ctx, now);
      return { id, updatedAt: now, published: !options.draft };
    }
    const status = row.status as ContentStatus;
    if (status === 'CLOSED') throw badRequest('Content is closed. It cannot be updated.');
    const toDraft = options.draft || status === 'DRAFT';
    const changes: Partial<typeof cmsContents.$inferInsert> = {
      updatedAt: now,
      updatedBy: ctx.actor,
    };
    if (toDraft) {
      const draft = merge(row.draftData ?? row.data, write.set, write.clear);
      checkRequired(def, draft);
      changes.draftData = draft;
      changes.draftKey = row.draftKey ?? newDraftKey();
      if (status === 'PUBLISH') changes.status = 'PUBLISH_AND_DRAFT';
    } else {
      const data = merge(row.data, write.set, write.clear);
      checkRequired(def, data);
      changes.data = data;
      changes.revisedAt = now;
      const dates = ['updatedAt', 'revisedAt'];
      if (write.publishedAt) {
        changes.publishedAt = new Date(write.publishedAt);
        if (changes.publishedAt.getTime() !== row.publishedAt?.getTime()) dates.push('publishedAt');
      }
      Object.assign(changes, await columnsFor(def, data, ctx));
      await updateRow(tx, def, row, changes, 'save', ctx, now);
      const change = row.data ? publishedEdit(def, id, row.data, data, dates) : undefined;
      return { id, updatedAt: now, published: true, change };
    }
    await updateRow(tx, def, row, changes, 'save', ctx, now);
    return { id, updatedAt: now, published: false, change: undefined };
  });
  // Only the draft changed: no published answer did (the console reads drafts uncached).
  if (result.published) emitContentChange(result.change ?? { endpoint: def.endpoint, id });
  if (result.published && ctx.readingsLater) indexReadingsLater(db, def, result.id);
  return { id: result.id, updatedAt: result.updatedAt };
}

/**
 * Publishes the working copy (or reopens closed content): the console's 公開, and the
 * scheduler's when `due` is given, which publishes only an item still scheduled by then (so
 * two instances never publish it twice). False when there was nothing to do.
 */
export async function publishContent(
  db: Db,
  def: EndpointDef,
  id: string,
  ctx: WriteContext = SYSTEM_WRITE,
  options: { due?: Date } = {},
): Promise<{ published: boolean; updatedAt: Date | null }> {
  if (!canExist(def, id)) throw missing();
  const result = await db.transaction(async (tx) => {
    const row = await lockRow(tx, def, id, ctx);
    if (!row) throw missing();
    if (options.due && !(row.scheduledAt && row.scheduledAt <= options.due))
      return { published: false, updatedAt: null, change: null };
    const data = row.draftData ?? row.data;
    if (!data) throw badRequest('Content is empty.', 'content-empty');
    checkRequired(def, data);
    const now = new Date();
    const changes = {
      status: 'PUBLISH',
      data,
      draftData: null,
      draftKey: null,
      updatedAt: now,
      updatedBy: ctx.actor,
      // A scheduled first publication is dated when it was scheduled for, not when it ran.
      publishedAt: row.publishedAt ?? (options.due && row.scheduledAt ? row.scheduledAt : now),
      revisedAt: now,
      scheduledAt: null,
      ...(await columnsFor(def, data, ctx)),
    };
    await updateRow(tx, def, row, changes, 'publish', ctx, now);
    // What follows the publication (a newsletter sent with it) happens in this transaction.
    await runItemHooks('published', tx, { endpoint: def.endpoint, id }, now);
    // A working copy published over a published version is an edit; anything else adds an item.
    const change =
      row.status === 'PUBLISH_AND_DRAFT' && row.data
        ? publishedEdit(def, id, row.data, data, ['updatedAt', 'revisedAt'])
        : { endpoint: def.endpoint, id };
    return { published: true, updatedAt: now, change };
  });
  if (result.change) emitContentChange(result.change);
  if (result.published && ctx.readingsLater) indexReadingsLater(db, def, id);
  return { published: result.published, updatedAt: result.updatedAt };
}

/**
 * Takes the item off the site: it becomes a draft again, its working copy kept (the newer
 * draft if there is one) and its first publication date remembered for republishing.
 */
export async function unpublishContent(
  db: Db,
  def: EndpointDef,
  id: string,
  ctx: WriteContext,
): Promise<{ updatedAt: Date }> {
  if (!canExist(def, id)) throw missing();
  const result = await db.transaction(async (tx) => {
    const row = await lockRow(tx, def, id, ctx);
    if (!row) throw missing();
    if (row.status === 'DRAFT')
      throw badRequest('Content is not published.', 'content-not-published');
    const now = new Date();
    const changes = {
      status: 'DRAFT',
      data: null,
      draftData: row.draftData ?? row.data,
      draftKey: row.draftKey ?? newDraftKey(),
      updatedAt: now,
      updatedBy: ctx.actor,
      ...(await searchColumns(def, null)),
    };
    await updateRow(tx, def, row, changes, 'unpublish', ctx, now);
    await runItemHooks('withdrawn', tx, { endpoint: def.endpoint, id }, now);
    return { updatedAt: now };
  });
  emitContentChange({ endpoint: def.endpoint, id });
  return result;
}

/** Sets (or, with null, clears) when the working copy publishes itself. */
export async function scheduleContent(
  db: Db,
  def: EndpointDef,
  id: string,
  at: Date | null,
  ctx: WriteContext,
): Promise<{ updatedAt: Date }> {
  if (!canExist(def, id)) throw missing();
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, def, id, ctx);
    if (!row) throw missing();
    if (at && !(row.draftData ?? row.data)) throw badRequest('Content is empty.', 'content-empty');
    const now = new Date();
    const changes = { scheduledAt: at, updatedAt: now, updatedBy: ctx.actor };
    await updateRow(tx, def, row, changes, at ? 'schedule' : 'unschedule', ctx, now);
    // The publication a newsletter waited for is off: so is the newsletter.
    if (!at) await runItemHooks('withdrawn', tx, { endpoint: def.endpoint, id }, now);
    return { updatedAt: now };
  });
}

export async function deleteContent(
  db: Db,
  def: EndpointDef,
  id: string,
  ctx: WriteContext = SYSTEM_WRITE,
): Promise<void> {
  if (def.kind !== 'list') throw badRequest('This API is an object type: DELETE is not available.');
  if (!canExist(def, id)) throw missing();
  const referencing: SQL[] = [];
  for (const other of CONTENT_MODEL) {
    for (const field of other.fields) {
      if (field.endpoint !== def.endpoint) continue;
      const key = sql.raw(`'${field.id}'`);
      const test = (column: SQL) =>
        field.kind === 'relation'
          ? sql`${column}->>${key} = ${id}`
          : sql`coalesce(${column}->${key} @> jsonb_build_array(${id}::text), false)`;
      referencing.push(
        sql`(endpoint = ${other.endpoint} AND (${test(sql`data`)} OR ${test(sql`draft_data`)}))`,
      );
    }
  }
  const status = await db.transaction(async (tx) => {
    if (referencing.length) {
      const [ref] = await tx
        .select({ id: cmsContents.id })
        .from(cmsContents)
        .where(
          sql`NOT (endpoint = ${def.endpoint} AND id = ${id}) AND (${sql.join(referencing, sql` OR `)})`,
        )
        .limit(1);
      if (ref) throw badRequest('The content is referenced.', 'content-referenced');
    }
    await lockRow(tx, def, id, ctx);
    const deleted = await tx
      .delete(cmsContents)
      .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, id)))
      .returning({ id: cmsContents.id, status: cmsContents.status });
    if (deleted.length === 0) throw missing();
    await deleteVersions(tx, def.endpoint, id);
    // Its old URLs would lead to a missing page: they answer 404 themselves.
    await dropRedirectsTo(tx, def.endpoint, id);
    return deleted[0]!.status as ContentStatus;
  });
  // A draft or a closed item was in no published answer.
  if (isPublicStatus(status)) emitContentChange({ endpoint: def.endpoint, id });
}
