import 'server-only';
import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import {
  MEDIA_KIND_LABELS,
  type MediaItem,
  type MediaKind,
  type MediaListQuery,
} from '@/lib/media/media-shared';
import { findEndpoint } from '@/lib/cms/model';
import { type Db, queryRows } from '@/server/platform/db/client';
import { likeContaining } from '@/server/platform/db/paging';
import { cmsContents, cmsMedia } from '@/server/platform/db/schema';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { cleanFilename } from '@/server/platform/storage/upload';

/**
 * The media library: every file uploaded (through the console or the content API) or shipped
 * with the demo, one row of `cms_media` each, keyed by the URL content stores. Where a file is
 * used is not kept anywhere: it is looked up in the content itself (published and draft), so
 * it can never be out of date, and a file still used is never deleted.
 */

export const MEDIA_PER_PAGE = 24;

export type NewMedia = {
  url: string;
  kind: MediaKind;
  contentType: string;
  fileSize: number;
  width?: number | null;
  height?: number | null;
  alt?: string;
  filename?: string;
  /** SHA-256 of the bytes (hex), when known. */
  contentHash?: string | null;
  /** `user:<id>` (console), `key:<id>` (content API), null (the demo seed). */
  uploadedBy?: string | null;
};

type Row = typeof cmsMedia.$inferSelect;

const isKind = (kind: string): kind is MediaKind => kind in MEDIA_KIND_LABELS;

function toItem(row: Row): MediaItem {
  return {
    id: row.id,
    url: row.url,
    kind: isKind(row.kind) ? row.kind : 'image',
    contentType: row.contentType,
    fileSize: row.fileSize,
    width: row.width,
    height: row.height,
    alt: row.alt,
    filename: row.filename,
    uploadedAt: row.createdAt.toISOString(),
  };
}

/** Adds a file; a URL already registered keeps its row (the demo seed runs more than once). */
export async function registerMedia(db: Db, media: NewMedia): Promise<MediaItem> {
  const [inserted] = await db
    .insert(cmsMedia)
    .values({
      url: media.url,
      kind: media.kind,
      contentType: media.contentType,
      fileSize: media.fileSize,
      width: media.width ?? null,
      height: media.height ?? null,
      alt: media.alt ?? '',
      filename: cleanFilename(media.filename),
      contentHash: media.contentHash ?? null,
      uploadedBy: media.uploadedBy ?? null,
    })
    .onConflictDoNothing({ target: cmsMedia.url })
    .returning();
  if (inserted) return toItem(inserted);
  const existing = await getMediaByUrl(db, media.url);
  if (!existing) throw new Error(`media row for ${media.url} vanished`);
  return existing;
}

export async function getMedia(db: Db, id: string): Promise<MediaItem | null> {
  const [row] = await db.select().from(cmsMedia).where(eq(cmsMedia.id, id)).limit(1);
  return row ? toItem(row) : null;
}

export async function getMediaByUrl(db: Db, url: string): Promise<MediaItem | null> {
  const [row] = await db.select().from(cmsMedia).where(eq(cmsMedia.url, url)).limit(1);
  return row ? toItem(row) : null;
}

/** The oldest file of the library with these bytes (its SHA-256, hex), or null. */
export async function findMediaByHash(db: Db, contentHash: string): Promise<MediaItem | null> {
  const [row] = await db
    .select()
    .from(cmsMedia)
    .where(eq(cmsMedia.contentHash, contentHash))
    .orderBy(asc(cmsMedia.createdAt), asc(cmsMedia.id))
    .limit(1);
  return row ? toItem(row) : null;
}

/** Who uploaded a file, as stored (`user:<id>`, `key:<id>` or null). */
export async function uploaderOf(db: Db, id: string): Promise<string | null> {
  const [row] = await db
    .select({ uploadedBy: cmsMedia.uploadedBy })
    .from(cmsMedia)
    .where(eq(cmsMedia.id, id))
    .limit(1);
  return row?.uploadedBy ?? null;
}

export type MediaPage = { items: MediaItem[]; total: number; page: number; pageCount: number };

/** Newest first; `q` in the file name or the alt text; `kind` one kind only; `url` that file. */
export async function listMedia(
  db: Db,
  query: MediaListQuery,
  perPage: number = MEDIA_PER_PAGE,
): Promise<MediaPage> {
  const q = query.q.trim();
  const where = and(
    query.kind ? eq(cmsMedia.kind, query.kind) : undefined,
    query.url ? eq(cmsMedia.url, query.url) : undefined,
    q
      ? or(ilike(cmsMedia.filename, likeContaining(q)), ilike(cmsMedia.alt, likeContaining(q)))
      : undefined,
  );
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(cmsMedia)
    .where(where);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, query.page), pageCount);
  const rows = await db
    .select()
    .from(cmsMedia)
    .where(where)
    .orderBy(desc(cmsMedia.createdAt), desc(cmsMedia.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { items: rows.map(toItem), total, page, pageCount };
}

export type AltUpdate =
  | { ok: true; media: MediaItem }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'invalid'; message: string };

/** Alt text is checked at the boundary (length, characters); an image must keep one. */
export async function updateMediaAlt(db: Db, id: string, alt: string): Promise<AltUpdate> {
  const found = await getMedia(db, id);
  if (!found) return { ok: false, reason: 'not-found' };
  const text = alt.trim();
  if (found.kind === 'image' && !text) {
    return { ok: false, reason: 'invalid', message: ALT_REQUIRED_FOR_IMAGE };
  }
  const [row] = await db.update(cmsMedia).set({ alt: text }).where(eq(cmsMedia.id, id)).returning();
  return row ? { ok: true, media: toItem(row) } : { ok: false, reason: 'not-found' };
}

export const ALT_REQUIRED_FOR_IMAGE =
  '画像の代替テキストは空にできません。画像に何が写っているかを短く入力してください。';

export type MediaUsage = {
  endpoint: string;
  /** The endpoint's name in the console (記事, 著者, …). */
  endpointLabel: string;
  /** '' for an object endpoint's one item. */
  id: string;
  /** The item's title (or name), published or draft; '' when it has none. */
  title: string;
  /** Where the URL was found. */
  inPublished: boolean;
  inDraft: boolean;
};

const titleOf = (data: Record<string, unknown> | null): string => {
  const value = data?.title ?? data?.name;
  return typeof value === 'string' ? value : '';
};

/**
 * Every content item whose published version or draft holds the URL anywhere: a media or
 * file field, a rich-text body's <img>/<audio>, a link. Searched in the JSON's text, so no
 * field kind can be missed; file names are random or fixed with their extension, so a URL is
 * never part of another one.
 */
export async function findMediaUsage(db: Db, url: string): Promise<MediaUsage[]> {
  const inData = sql<boolean>`coalesce(strpos(${cmsContents.data}::text, ${url}) > 0, false)`;
  const inDraft = sql<boolean>`coalesce(strpos(${cmsContents.draftData}::text, ${url}) > 0, false)`;
  const rows = await db
    .select({
      endpoint: cmsContents.endpoint,
      id: cmsContents.id,
      data: cmsContents.data,
      draftData: cmsContents.draftData,
      inPublished: inData,
      inDraft,
    })
    .from(cmsContents)
    .where(or(inData, inDraft))
    .orderBy(cmsContents.endpoint, desc(cmsContents.updatedAt));
  return rows.map((r) => ({
    endpoint: r.endpoint,
    endpointLabel: findEndpoint(r.endpoint)?.label ?? r.endpoint,
    id: r.id,
    title: titleOf(r.draftData) || titleOf(r.data),
    inPublished: r.inPublished,
    inDraft: r.inDraft,
  }));
}

/**
 * How many content items use each of these URLs (the same rule as findMediaUsage), for a
 * page of the library: one query, not one per file.
 */
export async function usageCounts(db: Db, urls: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map(urls.map((url) => [url, 0]));
  if (urls.length === 0) return counts;
  const list = sql.join(
    urls.map((url) => sql`(${url})`),
    sql`, `,
  );
  const rows = await queryRows<{ url: string; uses: number | string }>(
    db,
    // Each item's JSON made text once, not once per URL: measured on 1,100 items and a page of
    // 30 files (EXPLAIN ANALYZE on PGlite), 850 ms → 80.
    sql`
    with c as materialized (
      select id, coalesce(data::text, '') as published, coalesce(draft_data::text, '') as draft
      from ${cmsContents}
    )
    select u.url, count(c.id) as uses
    from (values ${list}) as u(url)
    join c on strpos(c.published, u.url) > 0 or strpos(c.draft, u.url) > 0
    group by u.url`,
  );
  for (const row of rows) counts.set(row.url, Number(row.uses));
  return counts;
}

/** The storage key of a library URL (`/uploads/<key>` or `/media/<key>`), or null. */
export function storageKeyOfUrl(url: string): string | null {
  const match = /^\/(?:uploads|media)\/([a-z0-9/_.-]+)$/.exec(url);
  const key = match?.[1];
  return key && !key.split('/').some((s) => s === '' || s === '.' || s === '..') ? key : null;
}

export const inUseMessage = (count: number) =>
  `${count}件のコンテンツで使われているため削除できません。先にコンテンツからこのファイルを外してください。`;

export type MediaDeletion =
  | { ok: true; media: MediaItem }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'in-use'; usage: MediaUsage[]; message: string };

/** Removes the row and the stored file, unless some content still uses the file. */
export async function deleteMedia(
  db: Db,
  storage: MediaStorage,
  id: string,
): Promise<MediaDeletion> {
  const found = await getMedia(db, id);
  if (!found) return { ok: false, reason: 'not-found' };
  const usage = await findMediaUsage(db, found.url);
  if (usage.length > 0) {
    return { ok: false, reason: 'in-use', usage, message: inUseMessage(usage.length) };
  }
  // The row first: a file left behind by a failure is only space, a row without a file a
  // broken library entry.
  const deleted = await db
    .delete(cmsMedia)
    .where(eq(cmsMedia.id, id))
    .returning({ id: cmsMedia.id });
  if (deleted.length === 0) return { ok: false, reason: 'not-found' };
  const key = storageKeyOfUrl(found.url);
  if (key) await storage.delete(key);
  return { ok: true, media: found };
}
