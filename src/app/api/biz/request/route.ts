import { handlePartnerApplicationPost } from '@/server/features/inquiries/inquiries-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handlePartnerApplicationPost(request);
}
