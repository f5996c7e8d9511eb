import { organizationCheckoutRoute } from '@/server/features/invoice-billing/http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return organizationCheckoutRoute(request);
}
