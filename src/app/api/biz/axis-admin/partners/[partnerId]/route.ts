import { axisAdminRoutes } from '@/server/features/partners/axis-admin-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('partnerId', (request, partnerId) =>
  axisAdminRoutes.updatePartner(request, partnerId),
);
