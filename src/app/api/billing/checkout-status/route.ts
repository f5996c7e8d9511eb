import { handleCheckoutStatus } from '@/server/features/billing/billing-http';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return handleCheckoutStatus(request);
}
