import { axisAdminRoutes } from '@/server/partners/axis-admin-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => axisAdminRoutes.closeListing(request, id));
