import { newsletterConfirmPost } from '@/server/features/newsletter/footer-http';

export const dynamic = 'force-dynamic';

const handle = newsletterConfirmPost();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
