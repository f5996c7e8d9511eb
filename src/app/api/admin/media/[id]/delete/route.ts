import { mediaRoutes } from '@/server/features/media/http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => mediaRoutes.remove(request, id));
