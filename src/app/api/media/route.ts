import { handleMediaUpload } from '@/server/features/media/api-upload';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request): Promise<Response> {
  return handleMediaUpload(request);
}
