import { handleAccountPost } from '@/server/features/account/account-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('flow', (request, flow) => handleAccountPost(request, flow));
