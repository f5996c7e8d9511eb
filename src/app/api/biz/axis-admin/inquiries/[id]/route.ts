import { axisAdminRoutes } from '@/server/partners/axis-admin-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  return axisAdminRoutes.inquiryState(request, (await params).id);
}
