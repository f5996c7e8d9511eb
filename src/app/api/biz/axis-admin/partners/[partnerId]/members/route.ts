import { axisAdminRoutes } from '@/server/partners/axis-admin-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('partnerId', (request, partnerId) =>
  axisAdminRoutes.members(request, partnerId),
);
