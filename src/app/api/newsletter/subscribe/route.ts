import { newsletterSubscribePost } from '@/server/features/newsletter/footer-http';

export const dynamic = 'force-dynamic';

const handle = newsletterSubscribePost();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
