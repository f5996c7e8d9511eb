import { appAuth } from '@/server/identity/app-auth';

export const dynamic = 'force-dynamic';

async function handler(request: Request): Promise<Response> {
  return (await appAuth()).handler(request);
}

export { handler as GET, handler as POST };
