import { offersRoutes } from '@/server/features/admin/offers-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => offersRoutes.deactivate(request, id));
