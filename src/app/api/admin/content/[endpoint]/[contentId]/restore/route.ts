import { consoleRoutes } from '@/server/features/console/console-http';
import { contentItemRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = contentItemRoute((request, endpoint, contentId) =>
  consoleRoutes().restore(request, endpoint, contentId),
);
