import { handlePartnerApplicationPost } from '@/server/inquiries/inquiries-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handlePartnerApplicationPost(request);
}
