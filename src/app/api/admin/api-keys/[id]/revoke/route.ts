import { apiKeysRoutes } from '@/server/admin/api-keys-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('id', (request, id) => apiKeysRoutes.revoke(request, id));
