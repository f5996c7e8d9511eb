import 'server-only';
import type { z } from 'zod';
import { isContentRequestError } from './client';
import { CONTENT_ID } from './schemas';
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
