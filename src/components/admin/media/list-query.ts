import { z } from '@/lib/zod';
import { pageNumberParam, searchTextParam } from '@/components/admin/list-query-params';
import { MEDIA_KINDS, type MediaKind, type MediaListQuery } from '@/lib/media/media-shared';

/**
 * The query string of /admin/media (`q`, `kind`, `page`). Anything out of shape is dropped,
 * never an error: the page shows the unfiltered first page, as the other admin lists do.
 */

const mediaQuery = z.object({
  q: searchTextParam,
  kind: z
    .enum(MEDIA_KINDS as [MediaKind, ...MediaKind[]])
    .optional()
    .catch(undefined),
  page: pageNumberParam(6),
});

export function parseMediaQuery(params: Record<string, unknown>): MediaListQuery {
  const parsed = mediaQuery.parse(params);
  return { q: parsed.q ?? '', kind: parsed.kind ?? '', page: parsed.page ?? 1 };
}
