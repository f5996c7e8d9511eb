import { consoleRoutes } from '@/server/console/console-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('endpoint', (request, endpoint) =>
  consoleRoutes().create(request, endpoint),
);
