import { offersRoutes } from '@/server/admin/offers-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => offersRoutes.deactivate(request, id));
