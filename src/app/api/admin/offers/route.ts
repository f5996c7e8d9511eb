import { offersRoutes } from '@/server/features/admin/offers-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return offersRoutes.create(request);
}
