import { adminUserRoutes } from '@/server/admin/users-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('userId', (request, userId) =>
  adminUserRoutes.plan(request, userId),
);
