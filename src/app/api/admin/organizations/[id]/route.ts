import { organizationsRoutes } from '@/server/features/organizations/http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => organizationsRoutes.update(request, id));
