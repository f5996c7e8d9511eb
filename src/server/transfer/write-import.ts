import 'server-only';
import { CmsApiError } from '@/server/cms/errors';
import { emitContentChange } from '@/server/cms/events';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { searchColumns } from '@/server/cms/search-index';
import { type StoredData, checkRequired, validateWrite } from '@/server/cms/values';
import type { Db } from '@/server/db/client';
import { cmsContents, cmsMedia, cmsVersions } from '@/server/db/schema';
import type { ContentRow, MediaRow, VersionRow } from './archive-format';
import { TransferError } from './errors';
import { notEmptyMessage, contentInventory } from './inventory';

/**
 * Checking imported rows against the content model, and writing a whole import in one
 * transaction, so an import that fails leaves no row behind.
 */

/** `posts/abc` or `about` (an object endpoint's one item): how an error names an item. */
export const itemName = (endpoint: string, id: string) => (id ? `${endpoint}/${id}` : endpoint);

/**
 * Stored data as the content API would store it: unknown fields refused, every value checked
 * by its field's rules, rich text sanitised again (values.ts). Throws a TransferError naming
 * the item and the field.
 */
export function checkedData(
  def: EndpointDef,
  id: string,
  data: StoredData,
  kind: 'published' | 'draft',
): StoredData {
  try {
    // Nothing to validate but what must be there (the API refuses an empty body outright).
    if (Object.keys(data).length === 0) {
      if (kind === 'published') checkRequired(def, data);
      return {};
    }
    // A published version has its required fields, as the API insists; a draft may not yet.
    return validateWrite(def, data, kind === 'published' ? 'create' : 'patch').set;
  } catch (error) {
    if (error instanceof CmsApiError)
      // The rule's own words are the content API's (microCMS's English messages).
      throw new TransferError(
        `${itemName(def.endpoint, id)}: このサイトのコンテンツモデルに合わない値があります (${error.message})`,
      );
    throw error;
  }
}

/** The endpoint of a row, refusing one the content model does not have. */
export function endpointOf(endpoint: string, id: string): EndpointDef {
  const def = findEndpoint(endpoint);
  if (!def) throw new TransferError(`このサイトにないエンドポイントです: ${endpoint}`);
  if (def.kind === 'object' && id !== '')
    throw new TransferError(`${endpoint} は 1 件だけのエンドポイントです (id '${id}' は不正です)`);
  if (def.kind === 'list' && id === '')
    throw new TransferError(`${endpoint} の項目に id がありません`);
  return def;
}

/** A content row with its data checked; the input as parsed by archive-format.ts. */
export function checkedContentRow(row: ContentRow): ContentRow {
  const def = endpointOf(row.endpoint, row.id);
  const data = row.data ? checkedData(def, row.id, row.data, 'published') : null;
  const draftData = row.draftData ? checkedData(def, row.id, row.draftData, 'draft') : null;
  if ((row.status === 'DRAFT' || row.status === 'PUBLISH_AND_DRAFT') && !draftData && !data)
    throw new TransferError(`${itemName(row.endpoint, row.id)}: 下書きの内容がありません`);
  return { ...row, data, draftData };
}

export function checkedVersionRow(row: VersionRow): VersionRow {
  const def = endpointOf(row.endpoint, row.contentId);
  return { ...row, data: row.data ? checkedData(def, row.contentId, row.data, 'draft') : null };
}

export type ImportRows = {
  contents: ContentRow[];
  versions: VersionRow[];
  media: MediaRow[];
};

export type ImportCounts = {
  /** Items per endpoint. */
  contents: Record<string, number>;
  versions: number;
  media: number;
  files: number;
};

const date = (iso: string | null) => (iso ? new Date(iso) : null);
const BATCH = 200;

function* batches<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += BATCH) yield rows.slice(i, i + BATCH);
}

/** Whether a row's published version is what `q` should find (what the store indexes). */
const isPublished = (row: ContentRow) =>
  (row.status === 'PUBLISH' || row.status === 'PUBLISH_AND_DRAFT') && row.data !== null;

/**
 * Writes every row in one transaction, after checking once more, inside it, that the instance
 * is still empty; then tells the caches. Versions get new ids in their original order (the
 * history a deleted item left here keeps its own).
 */
export async function writeImport(db: Db, rows: ImportRows): Promise<Record<string, number>> {
  const seen = new Set<string>();
  for (const row of rows.contents) {
    const key = `${row.endpoint}\u0000${row.id}`;
    if (seen.has(key))
      throw new TransferError(`${itemName(row.endpoint, row.id)} が 2 回含まれています`);
    seen.add(key);
  }
  const draftKeys = new Set<string>();
  for (const row of rows.contents) {
    if (!row.draftKey) continue;
    if (draftKeys.has(row.draftKey))
      throw new TransferError(`${itemName(row.endpoint, row.id)}: 下書きキーが重複しています`);
    draftKeys.add(row.draftKey);
  }
  const mediaUrls = new Set<string>();
  for (const row of rows.media) {
    if (mediaUrls.has(row.url))
      throw new TransferError(`メディア ${row.url} が 2 回含まれています`);
    mediaUrls.add(row.url);
  }

  await db.transaction(async (tx) => {
    const message = notEmptyMessage(await contentInventory(tx));
    if (message) throw new TransferError(message);
    for (const batch of batches(rows.contents)) {
      await tx.insert(cmsContents).values(
        batch.map((row) => ({
          endpoint: row.endpoint,
          id: row.id,
          status: row.status,
          data: row.data,
          draftData: row.draftData,
          draftKey: row.draftKey,
          createdAt: new Date(row.createdAt),
          updatedAt: new Date(row.updatedAt),
          publishedAt: date(row.publishedAt),
          revisedAt: date(row.revisedAt),
          scheduledAt: date(row.scheduledAt),
          updatedBy: row.updatedBy,
          ...searchColumns(findEndpoint(row.endpoint)!, isPublished(row) ? row.data : null),
        })),
      );
    }
    const versions = [...rows.versions].sort((a, b) => a.id - b.id);
    for (const batch of batches(versions)) {
      await tx.insert(cmsVersions).values(
        batch.map((row) => ({
          endpoint: row.endpoint,
          contentId: row.contentId,
          data: row.data,
          status: row.status,
          action: row.action,
          actor: row.actor,
          createdAt: new Date(row.createdAt),
        })),
      );
    }
    for (const batch of batches(rows.media)) {
      await tx.insert(cmsMedia).values(
        batch.map((row) => ({
          id: row.id,
          url: row.url,
          kind: row.kind,
          contentType: row.contentType,
          fileSize: row.fileSize,
          width: row.width,
          height: row.height,
          alt: row.alt,
          filename: row.filename,
          uploadedBy: row.uploadedBy,
          createdAt: new Date(row.createdAt),
        })),
      );
    }
  });

  const perEndpoint: Record<string, number> = {};
  for (const row of rows.contents) {
    perEndpoint[row.endpoint] = (perEndpoint[row.endpoint] ?? 0) + 1;
    emitContentChange({ endpoint: row.endpoint, id: row.id });
  }
  return perEndpoint;
}
