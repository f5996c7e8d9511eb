import { newsletterRoutes } from '@/server/features/newsletter/console-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const GET = paramRoute('sendId', (request, sendId) =>
  newsletterRoutes.status(request, sendId),
);
