import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from '@/lib/zod';
import { CONTENT_MODEL, type EndpointDef } from '@/lib/cms/model';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import type { StoredData } from '@/server/services/cms/values';
import type { Db } from '@/server/platform/db/client';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import type { ContentRow, MediaRow } from '../archive-format';
import { TransferError } from '../errors';
import { transferTempDir } from '../export';
import { assertEmpty } from '../inventory';
import type { TransferProgress } from '../progress';
import { checkedData, writeImport } from '../write-import';
import { MicroCmsClient, type MicroCmsClientOptions } from './client';
import { type StoredDownload, downloadMedia, downloadableUrl } from './media';

/**
 * Import from a hosted microCMS service (or anything that answers its content API): every
 * endpoint of our content model, page by page (limit=100, depth=0 so references stay ids),
 * ids and dates kept; the files the content points at downloaded into our storage and the
 * URLs rewritten to ours. Nothing is written until everything has been read and checked: the
 * rows then go in one transaction, and on failure the stored files are removed again.
 */

const PAGE_SIZE = 100;
const SYSTEM_KEYS = new Set(['id', 'createdAt', 'updatedAt', 'publishedAt', 'revisedAt']);
/** Problems listed in full; past this many, one line says how many more. */
const MAX_LISTED = 50;

const isoDate = z.iso.datetime({ offset: true });
const itemSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,50}$/)
      .optional(),
    createdAt: isoDate,
    updatedAt: isoDate,
    publishedAt: isoDate.nullish(),
    revisedAt: isoDate.nullish(),
  })
  .passthrough();
const listSchema = z.object({
  contents: z.array(z.unknown()),
  totalCount: z.number().int().min(0),
});

type Item = z.infer<typeof itemSchema>;
type Pending = { def: EndpointDef; item: Item; fields: StoredData };

export type MicroCmsImportOptions = Omit<MicroCmsClientOptions, 'baseUrl'> & {
  /** Already normalised (client.ts normalizeBaseUrl). */
  baseUrl: string;
  now?: Date;
};

export type MicroCmsImportSummary = {
  host: string;
  contents: Record<string, number>;
  media: number;
  warnings: string[];
  /** Source URL (as found in the content) → ours, for the files brought over. */
  mediaUrls: Record<string, string>;
  rateLimited: number;
};

const unescapeAttr = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const IMG_TAG = /<img\b[^>]*>/g;
const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;

/** The `src` (and alt) of every image of sanitised rich text. */
function imagesOf(html: string): { src: string; alt: string }[] {
  return [...html.matchAll(IMG_TAG)].flatMap(([tag]) => {
    const src = attr(tag, 'src');
    return src ? [{ src: unescapeAttr(src), alt: unescapeAttr(attr(tag, 'alt') ?? '') }] : [];
  });
}

function rewriteImages(html: string, replace: (src: string) => string | null): string {
  return html.replace(IMG_TAG, (tag) =>
    tag.replace(/\ssrc="([^"]*)"/, (whole, src: string) => {
      const next = replace(unescapeAttr(src));
      return next ? ` src="${next}"` : whole;
    }),
  );
}

const urlOf = (value: unknown): string | null =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { url?: unknown }).url === 'string'
    ? (value as { url: string }).url
    : null;

export async function importFromMicroCms(
  db: Db,
  storage: MediaStorage,
  options: MicroCmsImportOptions,
  progress: TransferProgress,
): Promise<MicroCmsImportSummary> {
  await assertEmpty(db);
  const client = new MicroCmsClient(options);
  const apiOrigin = new URL(client.baseUrl).origin;
  const now = options.now ?? new Date();
  const warnings: string[] = [];
  const warn = (line: string) => {
    if (warnings.length < MAX_LISTED) warnings.push(line);
    progress.warnings = warnings.length;
  };

  // How much there is, for the progress bar: totalCount of each list, one per object.
  progress.phase = 'counting';
  const totals = new Map<string, number>();
  for (const def of CONTENT_MODEL) {
    progress.endpoint = def.endpoint;
    if (def.kind === 'object') {
      totals.set(def.endpoint, 1);
      continue;
    }
    const page = await client.getJson(def.endpoint, { limit: '0' });
    if (page === null) continue;
    totals.set(def.endpoint, listSchema.parse(page).totalCount);
  }
  progress.items = { done: 0, total: [...totals.values()].reduce((a, b) => a + b, 0) };

  // The content, page by page.
  progress.phase = 'contents';
  const pending: Pending[] = [];
  const unknownFields = new Set<string>();
  const wanted = new Map<string, string>(); // download URL → alt text
  const want = (raw: string, alt: string) => {
    const url = downloadableUrl(raw, apiOrigin);
    if (url && !wanted.has(url)) wanted.set(url, alt);
  };
  const take = (def: EndpointDef, raw: unknown) => {
    const parsed = itemSchema.safeParse(raw);
    if (!parsed.success || (def.kind === 'list') !== (parsed.data.id !== undefined))
      throw new TransferError(`${def.endpoint} の項目の形式が想定と違います。`);
    const item = parsed.data;
    const fields: StoredData = {};
    for (const [key, value] of Object.entries(item)) {
      if (SYSTEM_KEYS.has(key)) continue;
      const field = def.fields.find((f) => f.id === key);
      if (!field) {
        if (!unknownFields.has(`${def.endpoint}.${key}`)) {
          unknownFields.add(`${def.endpoint}.${key}`);
          warn(
            `${def.endpoint} のフィールド「${key}」はこのサイトのコンテンツモデルにないため、取り込みませんでした。`,
          );
        }
        continue;
      }
      if (value === null || value === undefined) continue;
      if (field.kind === 'richEditor' && typeof value === 'string') {
        const html = sanitizeRichText(value);
        for (const image of imagesOf(html)) want(image.src, image.alt);
        fields[key] = html;
        continue;
      }
      if (field.kind === 'media' || field.kind === 'file') {
        const url = urlOf(value);
        const alt = (value as { alt?: unknown }).alt;
        if (url) want(url, typeof alt === 'string' ? alt : '');
      }
      fields[key] = value;
    }
    pending.push({ def, item, fields });
    progress.items.done++;
  };

  for (const def of CONTENT_MODEL) {
    if (!totals.has(def.endpoint)) continue;
    progress.endpoint = def.endpoint;
    if (def.kind === 'object') {
      const item = await client.getJson(def.endpoint, { depth: '0' });
      if (item === null)
        progress.items.total--; // the service has no content there
      else take(def, item);
      continue;
    }
    for (let offset = 0; ;) {
      const answer = await client.getJson(def.endpoint, {
        limit: String(PAGE_SIZE),
        offset: String(offset),
        depth: '0',
      });
      if (answer === null) break;
      const page = listSchema.parse(answer);
      for (const item of page.contents) take(def, item);
      offset += page.contents.length;
      if (page.contents.length === 0 || offset >= page.totalCount) break;
    }
  }
  progress.endpoint = null;

  // The files, each once.
  progress.phase = 'media';
  progress.media = { done: 0, total: wanted.size };
  const tempDir = path.join(await transferTempDir(), `microcms-${randomUUID()}`);
  await fs.mkdir(tempDir, { mode: 0o700 });
  const downloads = new Map<string, StoredDownload>();
  try {
    try {
      for (const [url, alt] of wanted) {
        try {
          downloads.set(url, await downloadMedia(client, storage, url, { tempDir, alt, now }));
        } catch (error) {
          if (!(error instanceof TransferError)) throw error;
          warn(`${error.message} 元の URL のままにしました。`);
        }
        progress.media.done++;
      }
    } finally {
      await fs.rm(tempDir, { recursive: true, force: true });
    }

    // Our URLs in place of theirs, then every item checked by the content model's rules.
    progress.phase = 'saving';
    const mediaUrls: Record<string, string> = {};
    const ours = (raw: string): StoredDownload | null => {
      const url = downloadableUrl(raw, apiOrigin);
      const found = url ? downloads.get(url) : undefined;
      if (found) mediaUrls[raw] = found.url;
      return found ?? null;
    };
    const contents: ContentRow[] = [];
    const problems: string[] = [];
    for (const { def, item, fields } of pending) {
      for (const field of def.fields) {
        const value = fields[field.id];
        if (value === undefined) continue;
        if (field.kind === 'richEditor' && typeof value === 'string') {
          fields[field.id] = rewriteImages(value, (src) => ours(src)?.url ?? null);
        } else if (field.kind === 'media' || field.kind === 'file') {
          const url = urlOf(value);
          const stored = url ? ours(url) : null;
          if (stored && field.kind === 'media') {
            const alt = (value as { alt?: unknown }).alt;
            fields[field.id] = {
              url: stored.url,
              ...(stored.width ? { width: stored.width, height: stored.height } : {}),
              ...(typeof alt === 'string' && alt ? { alt } : {}),
            };
          } else if (stored) {
            fields[field.id] = { url: stored.url, fileSize: stored.fileSize };
          }
        }
      }
      const id = item.id ?? '';
      const published = !!item.publishedAt;
      try {
        const data = checkedData(def, id, fields, published ? 'published' : 'draft');
        contents.push({
          endpoint: def.endpoint,
          id,
          status: published ? 'PUBLISH' : 'DRAFT',
          data: published ? data : null,
          draftData: published ? null : data,
          draftKey: published ? null : randomBytes(9).toString('base64url'),
          createdAt: item.createdAt,
          updatedAt: item.updatedAt,
          publishedAt: item.publishedAt ?? null,
          revisedAt: published ? (item.revisedAt ?? item.publishedAt ?? null) : null,
          scheduledAt: null,
          updatedBy: null,
        });
      } catch (error) {
        if (!(error instanceof TransferError)) throw error;
        problems.push(error.message);
      }
    }
    if (problems.length > 0) {
      const listed = problems.slice(0, MAX_LISTED);
      const more = problems.length - listed.length;
      throw new TransferError(
        `取り込めない項目が ${problems.length} 件あったため、何も取り込みませんでした。\n` +
          listed.join('\n') +
          (more > 0 ? `\nほか ${more} 件` : ''),
      );
    }

    const media: MediaRow[] = [...downloads.values()].map((d) => d.row);
    const perEndpoint = await writeImport(db, { contents, versions: [], media });
    return {
      host: client.host,
      contents: perEndpoint,
      media: media.length,
      warnings,
      mediaUrls,
      rateLimited: client.rateLimited,
    };
  } catch (error) {
    for (const download of downloads.values())
      await storage.delete(download.key).catch(() => undefined);
    throw error;
  }
}
