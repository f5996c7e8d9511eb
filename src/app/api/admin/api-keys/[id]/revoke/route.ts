import { apiKeysRoutes } from '@/server/admin/api-keys-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  return apiKeysRoutes.revoke(request, (await params).id);
}
