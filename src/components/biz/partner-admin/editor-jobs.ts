import 'server-only';
import { z } from '@/lib/zod';
import type { ContentClient } from '@/server/features/content/client';
import type { EditorJob } from './dashboard-model';

/**
 * The partner's jobs the editors placed on /jobs themselves (the demo jobs, say): published
 * `jobs` items naming the partner that have no listing of the partner's own. Read-only on the
 * dashboard, with their views and clicks.
 */

const editorJobSchema = z.object({
  id: z.string(),
  title: z.string(),
  publishedAt: z.string().nullish(),
  closingDate: z.string().nullish(),
});

/** More than a partner ever has at once; the newest first. */
const LIMIT = 100;

export async function listEditorPlacedJobs(
  content: ContentClient,
  /** A valid partner id (PARTNER_ID): it goes into the content service's filter. */
  partnerId: string,
  listingIds: ReadonlySet<string>,
): Promise<EditorJob[]> {
  const answer = await content.getList({
    endpoint: 'jobs',
    queries: {
      limit: LIMIT,
      orders: '-publishedAt',
      // The list answer always carries the system fields (src/server/features/content/client.ts).
      fields: 'id,createdAt,updatedAt,publishedAt,revisedAt,title,closingDate',
      filters: `partner[equals]${partnerId}`,
      depth: 0,
    },
    schema: editorJobSchema,
  });
  return answer.contents
    .filter((job) => !listingIds.has(job.id))
    .map((job) => ({
      id: job.id,
      title: job.title,
      publishedAt: job.publishedAt ?? null,
      closingDate: job.closingDate ?? null,
    }));
}
