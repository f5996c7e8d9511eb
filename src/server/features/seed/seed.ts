import 'server-only';
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import { registerMedia } from '@/server/features/media';
import { mediaTypeForKey } from '@/server/platform/storage/media-types';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { demoLists } from './demo-content';
import {
  DEMO_ASSETS,
  DEMO_ASSETS_DIR,
  DEMO_FILE_SIZES,
  demoStorageKey,
  demoUrl,
} from './demo-media';
import { DEMO_HOME, DEMO_PAGES } from './demo-pages';
import { createContent, updateContent } from '@/server/services/cms/writes';
import { stopReadings } from '@/server/services/cms/search/readings';

/**
 * Loads the demo corpus through the content store, so validation, sanitising and search
 * indexing apply exactly as for an editor's writes. Idempotent: items are keyed by stable ids
 * and whatever already exists is left alone, so a second run creates nothing.
 */

/** The shipped media: `file` under assets/demo, `url` where the site serves the copy. */
export const DEMO_MEDIA_FILES: readonly { file: string; url: string }[] = DEMO_ASSETS.map((a) => ({
  file: a.file,
  url: demoUrl(a.file),
}));

/** Where the shipped media are: resolved from the working directory, which is the project
 * root for `npm start`, `npm run db:seed` and the tests alike (a bundled server module has
 * no reliable path of its own). */
export function demoAssetsDir(): string {
  // Resolved at run time from the project root; not part of the bundle.
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), DEMO_ASSETS_DIR);
}

/** Copies the demo media to `<uploadsDir>/demo/`, leaving files already there untouched. */
export async function copyDemoMedia(
  uploadsDir: string,
  sourceDir: string = demoAssetsDir(),
): Promise<void> {
  for (const { file } of DEMO_MEDIA_FILES) {
    const target = path.join(uploadsDir, demoStorageKey(file));
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.copyFile(path.join(sourceDir, file), target, fs.constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Puts the shipped media in the media library (cms_media), so editors find them there and see
 * where they are used. Idempotent: a URL already registered is left as it is (an editor may
 * have changed its alt text). Sizes are the shipped files' own. With `uploadsDir`, only files
 * whose copy is there are registered: one an editor deleted is not brought back as a broken
 * entry when this runs again at a later start.
 */
export async function registerDemoMedia(
  db: Db,
  options: { sourceDir?: string; uploadsDir?: string } = {},
): Promise<number> {
  const sourceDir = options.sourceDir ?? demoAssetsDir();
  let registered = 0;
  for (const asset of DEMO_ASSETS) {
    const type = mediaTypeForKey(asset.file);
    if (!type) throw new Error(`A demo file of an unknown type: ${asset.file}`);
    if (options.uploadsDir) {
      const copy = path.join(
        /* turbopackIgnore: true */ options.uploadsDir,
        demoStorageKey(asset.file),
      );
      if (!(await fs.stat(copy).catch(() => null))) continue;
    }
    const fileSize =
      DEMO_FILE_SIZES[asset.file] ??
      (await fs.stat(path.join(/* turbopackIgnore: true */ sourceDir, asset.file))).size;
    await registerMedia(db, {
      url: demoUrl(asset.file),
      kind: type.kind,
      contentType: type.contentType,
      fileSize,
      width: asset.width ?? null,
      height: asset.height ?? null,
      // Only the logos ship without a description: they stand for a partner's logo.
      alt: asset.alt ?? (type.kind === 'image' ? 'パートナー企業のロゴ（デモ用の図形）' : ''),
      filename: asset.file,
      uploadedBy: null,
    });
    registered++;
  }
  return registered;
}

/** True when the content service holds nothing at all (the state of a new database). */
export async function isContentEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ id: cmsContents.id }).from(cmsContents).limit(1);
  return rows.length === 0;
}

function endpointDef(endpoint: string): EndpointDef {
  const def = findEndpoint(endpoint);
  if (!def) throw new Error(`The demo corpus names an unknown endpoint: ${endpoint}`);
  return def;
}

async function existingIds(db: Db, endpoint: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: cmsContents.id })
    .from(cmsContents)
    .where(and(eq(cmsContents.endpoint, endpoint), inArray(cmsContents.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export type SeedOptions = {
  log?: (line: string) => void;
  /** Where the shipped media are (their sizes are read there); default demoAssetsDir(). */
  assetsDir?: string;
};
export type SeedResult = { created: Record<string, number> };

export async function seedDemoContent(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const log = options.log ?? (() => {});
  const created: Record<string, number> = {};

  const media = await registerDemoMedia(db, { sourceDir: options.assetsDir });
  log(`media library: ${media} demo files registered (or already present)`);

  for (const { endpoint, items } of await demoLists()) {
    const def = endpointDef(endpoint);
    const present = await existingIds(
      db,
      endpoint,
      items.map((i) => i.id),
    );
    let count = 0;
    for (const item of items) {
      if (present.has(item.id)) continue;
      try {
        await createContent(db, def, { id: item.id, body: item.body, status: 'publish' });
        count++;
      } catch (error) {
        // Another seeding process may have written it in the meantime: that is fine.
        if ((await existingIds(db, endpoint, [item.id])).has(item.id)) continue;
        throw new Error(
          `demo ${endpoint}/${item.id}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    }
    created[endpoint] = count;
    log(`${endpoint}: ${count} created, ${items.length - count} already present`);
  }

  for (const page of [...DEMO_PAGES, { endpoint: 'home', body: DEMO_HOME }]) {
    const def = endpointDef(page.endpoint);
    let count = 0;
    if (!(await existingIds(db, page.endpoint, [''])).has('')) {
      await updateContent(db, def, '', page.body, { draft: false });
      count = 1;
    }
    created[page.endpoint] = count;
    log(`${page.endpoint}: ${count ? 'created' : 'already present'}`);
  }
  // The seeding was the reading analyser's work: its dictionary is let go now, not after its
  // idle time (a fresh instance's idle memory: docs/decisions/060-readings-in-the-server.md).
  stopReadings();
  return { created };
}
