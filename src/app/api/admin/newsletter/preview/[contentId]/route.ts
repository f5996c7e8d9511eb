import { newsletterRoutes } from '@/server/newsletter/console-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const GET = paramRoute('contentId', (request, contentId) =>
  newsletterRoutes.preview(request, contentId),
);
