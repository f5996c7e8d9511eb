import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { VersionAction } from '@/lib/admin-content';
import type { Db } from '@/server/platform/db/client';
import { cmsVersions } from '@/server/platform/db/schema';

/**
 * Each item's history (table cms_versions): the working copy after every write, who wrote it
 * and how. Written in the same transaction as the write, so history and content never disagree.
 */

/** An editor's autosaves within this long fold into one version, so history stays readable. */
export const AUTOSAVE_FOLD_MS = 10 * 60 * 1000;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type VersionEntry = {
  endpoint: string;
  contentId: string;
  data: Record<string, unknown> | null;
  status: string;
  action: VersionAction;
  actor: string;
};

export async function recordVersion(tx: Tx | Db, entry: VersionEntry, now: Date): Promise<void> {
  if (entry.action === 'autosave') {
    const [last] = await tx
      .select()
      .from(cmsVersions)
      .where(
        and(eq(cmsVersions.endpoint, entry.endpoint), eq(cmsVersions.contentId, entry.contentId)),
      )
      .orderBy(desc(cmsVersions.id))
      .limit(1);
    if (
      last &&
      last.action === 'autosave' &&
      last.actor === entry.actor &&
      now.getTime() - last.createdAt.getTime() < AUTOSAVE_FOLD_MS
    ) {
      await tx
        .update(cmsVersions)
        .set({ data: entry.data, status: entry.status, createdAt: now })
        .where(eq(cmsVersions.id, last.id));
      return;
    }
  }
  await tx.insert(cmsVersions).values({ ...entry, createdAt: now });
}

export type StoredVersion = typeof cmsVersions.$inferSelect;

/** Newest first. */
export async function listVersions(
  db: Db,
  endpoint: string,
  contentId: string,
  limit = 200,
): Promise<StoredVersion[]> {
  return db
    .select()
    .from(cmsVersions)
    .where(and(eq(cmsVersions.endpoint, endpoint), eq(cmsVersions.contentId, contentId)))
    .orderBy(desc(cmsVersions.id))
    .limit(limit);
}

export async function findVersion(
  db: Db,
  endpoint: string,
  contentId: string,
  id: number,
): Promise<StoredVersion | null> {
  const [row] = await db
    .select()
    .from(cmsVersions)
    .where(
      and(
        eq(cmsVersions.endpoint, endpoint),
        eq(cmsVersions.contentId, contentId),
        eq(cmsVersions.id, id),
      ),
    );
  return row ?? null;
}

export async function deleteVersions(tx: Tx | Db, endpoint: string, contentId: string) {
  await tx.delete(cmsVersions).where(sql`endpoint = ${endpoint} AND content_id = ${contentId}`);
}
