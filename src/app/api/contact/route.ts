import { handleContactPost } from '@/server/contact/contact-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleContactPost(request);
}
