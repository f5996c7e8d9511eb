import { handleGiftRedeem } from '@/server/features/billing/gift-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleGiftRedeem(request);
}
