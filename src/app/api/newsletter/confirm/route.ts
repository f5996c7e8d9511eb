import { newsletterConfirmPost } from '@/server/newsletter/footer-http';

export const dynamic = 'force-dynamic';

const handle = newsletterConfirmPost();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
