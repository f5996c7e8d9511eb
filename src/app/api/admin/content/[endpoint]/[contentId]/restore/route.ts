import { consoleRoutes } from '@/server/console/console-http';
import { contentItemRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = contentItemRoute((request, endpoint, contentId) =>
  consoleRoutes().restore(request, endpoint, contentId),
);
