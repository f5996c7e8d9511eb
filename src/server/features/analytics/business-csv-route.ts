import 'server-only';
import { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { userFromHeaders, type ViewerOption } from '@/server/features/identity';
import { CSV_TABLES, businessCsv, csvFileName } from './business-csv';
import { POST_SORTS, loadBusinessReport } from './business-report';
import type { TitleLookup } from './report';

export type BusinessCsvDeps = ViewerOption & {
  db?: Db;
  now?: number;
  titles?: TitleLookup;
};

const querySchema = z.object({
  table: z.enum(CSV_TABLES),
  sort: z.enum(POST_SORTS).catch('subscriptions'),
});

const notFound = () =>
  new Response('見つかりません。', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

/**
 * GET /api/admin/analytics/export?table=months|posts: a table of the business report as CSV. The
 * monthly table (members and money) is for admins, the per-item one for editors too (without its
 * yen), as on the page; anyone else gets the same 404 as for an unknown page.
 */
export async function handleBusinessCsv(
  request: Request,
  deps: BusinessCsvDeps = {},
): Promise<Response> {
  const user = await (deps.viewer ?? userFromHeaders)(request.headers);
  if (!user || (user.role !== 'admin' && user.role !== 'editor')) return notFound();
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return notFound();
  const { table, sort } = query.data;
  if (table === 'months' && user.role !== 'admin') return notFound();
  const report = await loadBusinessReport(deps.db ?? (await getDb()), {
    sort,
    ...(deps.now === undefined ? {} : { now: deps.now }),
    ...(deps.titles ? { titles: deps.titles } : {}),
  });
  // A BOM so that a spreadsheet reads the Japanese headings as UTF-8.
  return new Response(`\uFEFF${businessCsv(report, table, { money: user.role === 'admin' })}`, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${csvFileName(report, table)}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
