import { axisAdminRoutes } from '@/server/partners/axis-admin-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return axisAdminRoutes.createPartner(request);
}
