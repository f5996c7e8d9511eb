import { mediaRoutes } from '@/server/media/http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => mediaRoutes.remove(request, id));
