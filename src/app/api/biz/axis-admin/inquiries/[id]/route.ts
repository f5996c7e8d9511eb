import { axisAdminRoutes } from '@/server/features/partners/axis-admin-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => axisAdminRoutes.inquiryState(request, id));
