import { newsletterRoutes } from '@/server/features/newsletter/console-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return newsletterRoutes.test(request);
}
