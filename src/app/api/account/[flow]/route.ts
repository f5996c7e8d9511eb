import { handleAccountPost } from '@/server/identity/account-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('flow', (request, flow) => handleAccountPost(request, flow));
