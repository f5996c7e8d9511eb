import 'server-only';
import {
  CONSOLE_SORTS,
  type ConsoleSort,
  type ConsoleStatus,
  type ContentListQuery,
} from '@/lib/admin-content';
import { CONTENT_ID } from '@/server/features/content';

/**
 * A content list's query from the URL. Anything that is not one of the allowed values is
 * ignored (the list shows unfiltered), never an error page: URLs get shared and mangled.
 */

const STATUSES: readonly ConsoleStatus[] = ['draft', 'scheduled', 'published', 'changed'];
const MAX_PAGE = 10_000;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function parseContentListQuery(
  params: Record<string, string | string[] | undefined>,
): ContentListQuery {
  const q = (first(params.q) ?? '').trim().slice(0, 200);
  const status = first(params.status) ?? '';
  const category = first(params.category) ?? '';
  const sort = first(params.sort) ?? '';
  const page = Number(first(params.page) ?? '1');
  return {
    // PostgreSQL text cannot hold NUL; a query with one finds nothing anyway.
    q: q.includes('\u0000') ? '' : q,
    status: (STATUSES as readonly string[]).includes(status) ? (status as ConsoleStatus) : '',
    category: CONTENT_ID.test(category) ? category : '',
    sort: (CONSOLE_SORTS as readonly string[]).includes(sort) ? (sort as ConsoleSort) : 'updated',
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}
