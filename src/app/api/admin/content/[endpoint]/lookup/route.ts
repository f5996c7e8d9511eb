import { consoleRoutes } from '@/server/features/console/console-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const GET = paramRoute('endpoint', (request, endpoint) =>
  consoleRoutes().lookup(request, endpoint),
);
