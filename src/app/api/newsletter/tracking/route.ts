import { newsletterTrackingPost } from '@/server/features/newsletter/account-http';

export const dynamic = 'force-dynamic';

const handle = newsletterTrackingPost();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
