import { handleContactPost } from '@/server/features/contact/contact-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleContactPost(request);
}
