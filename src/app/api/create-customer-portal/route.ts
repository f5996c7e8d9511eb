import { handleCreateCustomerPortal } from '@/server/features/billing/billing-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleCreateCustomerPortal(request);
}
