import { adminUserRoutes } from '@/server/admin/users-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ userId: string }> },
): Promise<Response> {
  return adminUserRoutes.partner(request, (await params).userId);
}
