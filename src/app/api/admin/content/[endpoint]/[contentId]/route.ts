import { consoleRoutes } from '@/server/features/console/console-http';
import { contentItemRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const PUT = contentItemRoute((request, endpoint, contentId) =>
  consoleRoutes().save(request, endpoint, contentId),
);

export const DELETE = contentItemRoute((request, endpoint, contentId) =>
  consoleRoutes().remove(request, endpoint, contentId),
);
