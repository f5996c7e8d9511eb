import { organizationsRoutes } from '@/server/features/organizations/http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return organizationsRoutes.remove(request);
}
