import { handleBillingWebhook } from '@/server/features/billing/webhook';
import { applyOrganizationBillingEvent } from '@/server/features/invoice-billing';
import { getDb } from '@/server/platform/db/client';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleBillingWebhook(request, await getDb(), applyOrganizationBillingEvent);
}
