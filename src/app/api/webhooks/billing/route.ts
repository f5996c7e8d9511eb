import { handleBillingWebhook } from '@/server/billing/webhook';
import { getDb } from '@/server/db/client';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleBillingWebhook(request, await getDb());
}
