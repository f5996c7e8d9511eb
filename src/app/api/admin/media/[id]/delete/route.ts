import { mediaRoutes } from '@/server/media/http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  return mediaRoutes.remove(request, (await params).id);
}
