import { handleCheckoutStatus } from '@/server/billing/billing-http';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return handleCheckoutStatus(request);
}
