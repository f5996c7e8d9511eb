import 'server-only';
import { type SQL, and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import {
  bookmarks,
  cmsContents,
  cmsSubmissions,
  cmsVersions,
  gifts,
  jobApplyClicks,
  jobListings,
  newsletterSends,
  pageViews,
  subscriptions,
  userPrivateProfiles,
} from '@/server/platform/db/schema';
import { CONTENT_MODEL, type EndpointDef } from '@/lib/cms/model';
import { itemPath } from '@/lib/cms/item-paths';
import { slugProblem } from '@/lib/cms/slug';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { NEWSLETTER_ENDPOINT } from '@/lib/newsletter/console';
import { badRequest } from './errors';
import { canExist } from './content-id';
import { emitContentChange } from './events';
import { redirectRenamed } from './redirects';
import { isPublicStatus } from './store';
import { type Tx, type WriteContext, lockRow, recordRow } from './writes';

/**
 * Changing an item's id (its slug), the way docs/decisions/033-slugs-and-redirects.md decides:
 * the id stays the one key everything stores (the content API's microCMS shape has no other),
 * so one transaction renames it everywhere it is stored, and the old id becomes a redirect.
 */

/**
 * Endpoints whose ids are not only URLs: a partner's id is its contract's and its members'
 * (src/server/features/partners), and the partner consoles' URLs name it.
 */
const FIXED_ID_ENDPOINTS = new Set(['partners']);

export function canRename(def: EndpointDef): boolean {
  return def.kind === 'list' && !FIXED_ID_ENDPOINTS.has(def.endpoint);
}

/** The relation fields of every endpoint that point at `endpoint`'s items. */
function referringFields(endpoint: string) {
  return CONTENT_MODEL.flatMap((other) =>
    other.fields
      .filter((field) => field.endpoint === endpoint)
      .map((field) => ({ endpoint: other.endpoint, field })),
  );
}

/** `column` with the reference `from` in `fieldId` replaced by `to`, order kept. */
function replaced(column: SQL, kind: string, fieldId: string, from: string, to: string): SQL {
  const key = sql.raw(`'${fieldId}'`);
  const path = sql.raw(`'{${fieldId}}'`);
  if (kind === 'relation')
    return sql`CASE WHEN ${column}->>${key} = ${from}
      THEN jsonb_set(${column}, ${path}, to_jsonb(${to}::text)) ELSE ${column} END`;
  return sql`CASE WHEN coalesce(${column}->${key} @> jsonb_build_array(${from}::text), false)
    THEN jsonb_set(${column}, ${path}, (
      SELECT jsonb_agg(CASE WHEN e = to_jsonb(${from}::text) THEN to_jsonb(${to}::text) ELSE e END
        ORDER BY n)
      FROM jsonb_array_elements(${column}->${key}) WITH ORDINALITY AS t(e, n)))
    ELSE ${column} END`;
}

/** Every item referring to the renamed one (published version and draft) now names `to`. */
async function renameReferences(tx: Tx, endpoint: string, from: string, to: string) {
  for (const { endpoint: other, field } of referringFields(endpoint)) {
    const key = sql.raw(`'${field.id}'`);
    const refers = (column: SQL) =>
      field.kind === 'relation'
        ? sql`${column}->>${key} = ${from}`
        : sql`coalesce(${column}->${key} @> jsonb_build_array(${from}::text), false)`;
    await tx.execute(sql`UPDATE cms_contents SET
        data = ${replaced(sql`data`, field.kind, field.id, from, to)},
        draft_data = ${replaced(sql`draft_data`, field.kind, field.id, from, to)}
      WHERE endpoint = ${other} AND (${refers(sql`data`)} OR ${refers(sql`draft_data`)})`);
  }
}

/** Every table that stores the item's id by endpoint (src/server/platform/db/schema.ts). */
async function renameStoredIds(tx: Tx, endpoint: string, from: string, to: string) {
  await tx
    .update(cmsVersions)
    .set({ contentId: to })
    .where(and(eq(cmsVersions.endpoint, endpoint), eq(cmsVersions.contentId, from)));
  // Left by an item deleted under the new id earlier: they would collide with the moved ones.
  await tx
    .delete(bookmarks)
    .where(and(eq(bookmarks.endpoint, endpoint), eq(bookmarks.contentId, to)));
  await tx
    .update(bookmarks)
    .set({ contentId: to })
    .where(and(eq(bookmarks.endpoint, endpoint), eq(bookmarks.contentId, from)));
  const oldPath = itemPath(endpoint, from);
  await tx
    .update(pageViews)
    .set({
      contentId: to,
      ...(oldPath
        ? { path: sql`CASE WHEN path = ${oldPath} THEN ${itemPath(endpoint, to)} ELSE path END` }
        : {}),
    })
    .where(and(eq(pageViews.endpoint, endpoint), eq(pageViews.contentId, from)));
  await tx
    .update(userPrivateProfiles)
    .set({ sourceContentId: to })
    .where(
      and(
        eq(userPrivateProfiles.sourceEndpoint, endpoint),
        eq(userPrivateProfiles.sourceContentId, from),
      ),
    );
  await tx
    .update(subscriptions)
    .set({ sourceContentId: to })
    .where(
      and(eq(subscriptions.sourceEndpoint, endpoint), eq(subscriptions.sourceContentId, from)),
    );
  // A gift opens the post it was made for under its new id (docs/decisions/037-gift-articles.md).
  await tx
    .update(gifts)
    .set({ contentId: to })
    .where(and(eq(gifts.endpoint, endpoint), eq(gifts.contentId, from)));
  if (endpoint === NEWSLETTER_ENDPOINT)
    await tx
      .update(newsletterSends)
      .set({ contentId: to })
      .where(eq(newsletterSends.contentId, from));
  if (endpoint === 'jobs') {
    // A partner's listing is the jobs item of the same id (src/server/features/partners/jobs).
    await tx.update(jobListings).set({ id: to }).where(eq(jobListings.id, from));
    await tx
      .update(jobApplyClicks)
      .set({ contentId: to })
      .where(eq(jobApplyClicks.contentId, from));
  }
}

/**
 * Renames the item `from` to the slug `to`: 400 `content-id-invalid` for a slug the rule
 * refuses, `content-id-taken` when another item has it, `content-id-fixed` for an endpoint
 * whose ids cannot change, `content-not-found` when there is no such item; a ContentConflict
 * when it changed since `ctx.expectedUpdatedAt`.
 */
export async function renameContent(
  db: Db,
  def: EndpointDef,
  from: string,
  to: string,
  ctx: WriteContext,
  now = new Date(),
): Promise<{ id: string; updatedAt: Date }> {
  if (!canRename(def)) throw badRequest('The content id cannot be changed.', 'content-id-fixed');
  if (!canExist(def, from)) throw badRequest('Content is not exists.', 'content-not-found');
  if (slugProblem(def.endpoint, to))
    throw badRequest('Invalid content id format.', 'content-id-invalid');
  if (to === from) throw badRequest('The content id is unchanged.', 'content-id-unchanged');
  await db.transaction(async (tx) => {
    const row = await lockRow(tx, def, from, ctx);
    if (!row) throw badRequest('Content is not exists.', 'content-not-found');
    const [taken] = await tx
      .select({ id: cmsContents.id })
      .from(cmsContents)
      .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, to)))
      .for('update');
    if (taken) throw badRequest('Content is already exists.', 'content-id-taken');
    // A contributor's submission refers to the row by key (no cascade on update): it is set
    // aside while the key changes and put back under the new id.
    const submissions = await tx
      .delete(cmsSubmissions)
      .where(and(eq(cmsSubmissions.endpoint, def.endpoint), eq(cmsSubmissions.contentId, from)))
      .returning();
    await tx
      .update(cmsContents)
      .set({ id: to, updatedAt: now, updatedBy: ctx.actor })
      .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, from)));
    if (submissions.length)
      await tx
        .insert(cmsSubmissions)
        .values(submissions.map((submission) => ({ ...submission, contentId: to })));
    await renameReferences(tx, def.endpoint, from, to);
    await renameStoredIds(tx, def.endpoint, from, to);
    await redirectRenamed(tx, def.endpoint, from, to, {
      published: isPublicStatus(row.status),
      actor: ctx.actor,
      now,
    });
    await recordRow(tx, def, { ...row, id: to }, 'rename', ctx, now);
    await recordAudit(tx, {
      actor: ctx.actor,
      action: 'content-renamed',
      target: `content:${def.endpoint}/${to}`,
      detail: { endpoint: def.endpoint, from, to },
    });
  });
  // Every cache keyed by the old id or holding a reference to it (pages per audience, the
  // content API's answers, lists) is dropped, on every instance.
  emitContentChange({ endpoint: def.endpoint, id: from });
  emitContentChange({ endpoint: def.endpoint, id: to });
  return { id: to, updatedAt: now };
}
