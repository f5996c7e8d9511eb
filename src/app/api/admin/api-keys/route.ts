import { apiKeysRoutes } from '@/server/features/admin/api-keys-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return apiKeysRoutes.create(request);
}
