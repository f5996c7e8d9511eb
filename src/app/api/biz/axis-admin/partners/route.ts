import { axisAdminRoutes } from '@/server/features/partners/axis-admin-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return axisAdminRoutes.createPartner(request);
}
