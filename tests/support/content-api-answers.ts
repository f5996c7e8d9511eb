import { sql } from 'drizzle-orm';
import { CONTENT_MODEL } from '../../src/lib/cms/model';
import { type ReadMode, getContent, listContents } from '@/server/services/cms/store';
import { type Db, queryRows } from '@/server/platform/db/client';

/**
 * Test helpers: every answer of the content API of an instance (each endpoint, published and
 * with every draft, and each draft by its own key), to compare two instances.
 */

async function answersFor(db: Db, mode: ReadMode): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const def of CONTENT_MODEL) {
    if (def.kind === 'list') {
      out[def.endpoint] = await listContents(db, def, { limit: 1000, offset: 0, depth: 2 }, mode);
    } else {
      out[def.endpoint] = await getContent(db, def, '', { depth: 2 }, mode).catch(
        (error: Error) => `error: ${error.message}`,
      );
    }
  }
  return out;
}

export async function contentApiAnswers(db: Db): Promise<Record<string, unknown>> {
  const drafts = await queryRows<{ endpoint: string; id: string; draft_key: string }>(
    db,
    sql`SELECT endpoint, id, draft_key FROM cms_contents WHERE draft_key IS NOT NULL ORDER BY endpoint, id`,
  );
  const byDraftKey: Record<string, unknown> = {};
  for (const row of drafts) {
    const def = CONTENT_MODEL.find((d) => d.endpoint === row.endpoint)!;
    byDraftKey[`${row.endpoint}/${row.id}`] = await getContent(
      db,
      def,
      row.id,
      { depth: 1 },
      { kind: 'draftKey', draftKey: row.draft_key },
    );
  }
  const posts = CONTENT_MODEL.find((d) => d.endpoint === 'posts')!;
  return {
    // `q` reads the search columns the import rebuilt.
    search: await listContents(
      db,
      posts,
      { limit: 100, offset: 0, depth: 0, q: 'デザイン' },
      { kind: 'published' },
    ),
    published: await answersFor(db, { kind: 'published' }),
    allDrafts: await answersFor(db, { kind: 'allDrafts' }),
    byDraftKey,
  };
}
