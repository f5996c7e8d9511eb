import 'server-only';
import { z } from '@/lib/zod';
import { OBJECT_ITEM } from '@/lib/admin-content';
import { SEO_FIELD, findEndpoint } from '@/lib/cms/model';
import { CONTENT_ID, isContentRequestError, siteContent } from '@/server/features/content';

/**
 * What a generated share image is made of: a published item's title (its name for a feature)
 * and version, and its section. Titles are public on every page, whoever reads it; the rest of
 * the item is never read.
 */

export type ShareSubject = { title: string; section: string; version: string | null };

const subjectSchema = z.object({
  title: z.string().optional(),
  name: z.string().optional(),
  updatedAt: z.string().optional(),
  revisedAt: z.string().optional(),
});

/** Null for an endpoint without pages, a malformed id, or no published item. */
export async function readShareSubject(endpoint: string, id: string): Promise<ShareSubject | null> {
  const def = findEndpoint(endpoint);
  if (!def || !def.fields.includes(SEO_FIELD)) return null;
  const isObject = def.kind === 'object';
  if (isObject ? id !== OBJECT_ITEM : !CONTENT_ID.test(id)) return null;
  // The client checks the system fields of what it reads: they are asked for too.
  const fields = `${isObject ? '' : 'id,'}createdAt,updatedAt,revisedAt,title,name`;
  const queries = { fields, depth: 0 as const };
  try {
    const item = isObject
      ? await siteContent().getObject({ endpoint, queries, schema: subjectSchema })
      : await siteContent().getListDetail({
          endpoint,
          contentId: id,
          queries,
          schema: subjectSchema,
        });
    const title = item.title ?? item.name;
    if (!title) return null;
    return { title, section: def.label, version: item.revisedAt ?? item.updatedAt ?? null };
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404) return null;
    throw error;
  }
}
