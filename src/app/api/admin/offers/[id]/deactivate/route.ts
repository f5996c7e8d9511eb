import { offersRoutes } from '@/server/admin/offers-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  return offersRoutes.deactivate(request, (await params).id);
}
