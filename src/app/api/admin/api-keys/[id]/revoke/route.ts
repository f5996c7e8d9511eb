import { apiKeysRoutes } from '@/server/features/admin/api-keys-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => apiKeysRoutes.revoke(request, id));
