import { organizationsRoutes } from '@/server/features/organizations/http';

export const dynamic = 'force-dynamic';

/** The monthly reading report: ?org=ID&month=YYYY-MM, as CSV, for that organisation's admins. */
export async function GET(request: Request): Promise<Response> {
  return organizationsRoutes.report(request);
}
