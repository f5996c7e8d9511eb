import { handleAccountPost } from '@/server/account/account-http';
import { paramRoute } from '@/server/http/param-route';

export const dynamic = 'force-dynamic';

export const POST = paramRoute('flow', (request, flow) => handleAccountPost(request, flow));
