import { adminUserRoutes } from '@/server/features/admin/users-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('userId', (request, userId) =>
  adminUserRoutes.plan(request, userId),
);
