import { z } from '@/lib/zod';
import { pageNumberParam, searchTextParam } from '@/components/admin/list-query-params';

/**
 * The query strings of /admin/users (`q`, `page`) and /admin/audit (`action`, `q`, `page`).
 * Anything out of shape (a list, a word for a number, text past its length, an action name
 * with odd characters) is dropped, never an error: the page shows the unfiltered first page.
 */

const pageNumber = pageNumberParam(6);

const usersQuery = z.object({ q: searchTextParam, page: pageNumber });

const auditQuery = z.object({
  q: searchTextParam,
  page: pageNumber,
  action: z
    .string()
    .regex(/^[a-z0-9._-]{1,60}$/)
    .optional()
    .catch(undefined),
});

export type UsersQuery = { q: string; page: number };
export type AuditListQuery = { q: string; page: number; action: string };

export function parseUsersQuery(params: Record<string, unknown>): UsersQuery {
  const parsed = usersQuery.parse(params);
  return { q: parsed.q ?? '', page: parsed.page ?? 1 };
}

export function parseAuditQuery(params: Record<string, unknown>): AuditListQuery {
  const parsed = auditQuery.parse(params);
  return { q: parsed.q ?? '', page: parsed.page ?? 1, action: parsed.action ?? '' };
}

/** A list page's URL with only the parameters that differ from the defaults. */
export function listHref(
  path: string,
  params: Record<string, string | number | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '' || (key === 'page' && Number(value) <= 1)) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
