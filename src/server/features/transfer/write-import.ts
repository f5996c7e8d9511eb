import 'server-only';
import { CmsApiError } from '@/server/services/cms/errors';
import { emitContentChange } from '@/server/services/cms/events';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { searchColumns } from '@/server/services/cms/search-index';
import { type StoredData, checkRequired, validateWrite } from '@/server/services/cms/values';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/server/platform/db/client';
import { cmsContents, cmsMedia, cmsVersions } from '@/server/platform/db/schema';
import type { ContentRow, MediaRow, VersionRow } from './archive-format';
import { TransferError } from './errors';
import { assertEmpty } from './inventory';

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

/** Inserts rows BATCH at a time: one statement each, far below PostgreSQL's parameter limit. */
async function insertInBatches<Table extends PgTable, Row>(
  tx: Db,
  table: Table,
  rows: readonly Row[],
  toRow: (row: Row) => PgInsertValue<Table>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH)
    await tx.insert(table).values(rows.slice(i, i + BATCH).map(toRow));
}

/** Refuses the first row whose key an earlier row has (rows without a key are not compared). */
function refuseRepeats<Row>(
  rows: readonly Row[],
  keyOf: (row: Row) => string | null,
  problem: (row: Row) => string,
): void {
  const seen = new Set<string>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    if (seen.has(key)) throw new TransferError(problem(row));
    seen.add(key);
  }
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
  refuseRepeats(
    rows.contents,
    (row) => `${row.endpoint}\u0000${row.id}`,
    (row) => `${itemName(row.endpoint, row.id)} が 2 回含まれています`,
  );
  refuseRepeats(
    rows.contents,
    (row) => row.draftKey,
    (row) => `${itemName(row.endpoint, row.id)}: 下書きキーが重複しています`,
  );
  refuseRepeats(
    rows.media,
    (row) => row.url,
    (row) => `メディア ${row.url} が 2 回含まれています`,
  );

  // Readings come from a child process (src/server/services/cms/search/readings.ts): worked out before the
  // transaction, which then holds no lock while the analyser loads.
  const columns = new Map(
    await Promise.all(
      rows.contents.map(
        async (row) =>
          [
            row,
            await searchColumns(findEndpoint(row.endpoint)!, isPublished(row) ? row.data : null),
          ] as const,
      ),
    ),
  );
  await db.transaction(async (tx) => {
    await assertEmpty(tx);
    // The archive's rows are the tables' columns, times as ISO text.
    await insertInBatches(tx, cmsContents, rows.contents, (row) => ({
      ...row,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
      publishedAt: date(row.publishedAt),
      revisedAt: date(row.revisedAt),
      scheduledAt: date(row.scheduledAt),
      ...columns.get(row),
    }));
    const versions = [...rows.versions].sort((a, b) => a.id - b.id);
    await insertInBatches(tx, cmsVersions, versions, ({ id: _id, ...row }) => ({
      ...row,
      createdAt: new Date(row.createdAt),
    }));
    await insertInBatches(tx, cmsMedia, rows.media, (row) => ({
      ...row,
      createdAt: new Date(row.createdAt),
    }));
  });

  const perEndpoint: Record<string, number> = {};
  for (const row of rows.contents) {
    perEndpoint[row.endpoint] = (perEndpoint[row.endpoint] ?? 0) + 1;
    emitContentChange({ endpoint: row.endpoint, id: row.id });
  }
  return perEndpoint;
}
