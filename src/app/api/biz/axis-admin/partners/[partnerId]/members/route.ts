import { axisAdminRoutes } from '@/server/partners/axis-admin-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ partnerId: string }> },
): Promise<Response> {
  return axisAdminRoutes.members(request, (await params).partnerId);
}
