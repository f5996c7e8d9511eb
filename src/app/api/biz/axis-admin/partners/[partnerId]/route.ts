import { axisAdminRoutes } from '@/server/partners/axis-admin-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ partnerId: string }> },
): Promise<Response> {
  return axisAdminRoutes.updatePartner(request, (await params).partnerId);
}
