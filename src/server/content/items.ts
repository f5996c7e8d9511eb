import 'server-only';
import { cache } from 'react';
import type { z } from 'zod';
import { isContentRequestError } from './client';
import { CONTENT_ID, jobSchema, postSchema } from './schemas';
import { siteContent } from './site-content';

/** One item of a list endpoint, or null when it does not exist (or is not visible). */
export async function findItem<T>(
  endpoint: string,
  schema: z.ZodType<T>,
  contentId: string,
  draftKey?: string,
): Promise<(T & { id: string }) | null> {
  if (!CONTENT_ID.test(contentId)) return null;
  try {
    const item = await siteContent().getListDetail<T>({
      endpoint,
      contentId,
      queries: { depth: 1, ...(draftKey ? { draftKey } : {}) },
      schema,
    });
    return item;
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

// cache(): generateMetadata and the page read the item once per request.
export const findPost = cache((contentId: string, draftKey?: string) =>
  findItem('posts', postSchema, contentId, draftKey),
);
export const findJob = cache((contentId: string, draftKey?: string) =>
  findItem('jobs', jobSchema, contentId, draftKey),
);
