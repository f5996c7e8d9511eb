import { apiKeysRoutes } from '@/server/admin/api-keys-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return apiKeysRoutes.create(request);
}
