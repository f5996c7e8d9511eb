import { newsletterRoutes } from '@/server/newsletter/console-http';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ contentId: string }> },
): Promise<Response> {
  return newsletterRoutes.preview(request, (await params).contentId);
}
