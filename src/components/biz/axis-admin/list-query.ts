import { z } from '@/lib/zod';
import { pageNumberParam, searchTextParam } from '@/components/admin/list-query-params';

/**
 * The parameters of /biz/axis-admin: `q` (partner search), `page` (partners), `ipage`
 * (inquiries). Anything else, or a value out of shape
 * (a list, a word for a number, a search past 100 characters), is dropped, never an error.
 */

const pageNumber = pageNumberParam(4);

const listQuery = z.object({
  q: searchTextParam,
  page: pageNumber,
  ipage: pageNumber,
});

export type AxisAdminQuery = { q: string; page: number; ipage: number };

export function parseAxisAdminQuery(params: Record<string, unknown>): AxisAdminQuery {
  const parsed = listQuery.parse(params);
  return {
    q: parsed.q ?? '',
    page: parsed.page ?? 1,
    ipage: parsed.ipage ?? 1,
  };
}
