import { consoleRoutes } from '@/server/features/console/console-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('endpoint', (request, endpoint) =>
  consoleRoutes().bulk(request, endpoint),
);
