import { giftsRoutes } from '@/server/features/gifts/gifts-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return giftsRoutes.create(request);
}
