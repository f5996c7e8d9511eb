import { newsletterRoutes } from '@/server/newsletter/console-http';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ sendId: string }> },
): Promise<Response> {
  return newsletterRoutes.status(request, (await params).sendId);
}
