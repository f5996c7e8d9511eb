import { handleMediaUpload } from '@/server/storage/upload';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request): Promise<Response> {
  return handleMediaUpload(request);
}
