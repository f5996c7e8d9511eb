import { organizationsHandlers } from '@/server/features/organizations/http';
import { settleOrganizationBilling } from '@/server/features/invoice-billing';

export const dynamic = 'force-dynamic';

/** Registers an organisation and starts its billing (docs/decisions/059-invoice-billing.md). */
export async function POST(request: Request): Promise<Response> {
  return organizationsHandlers({ afterSave: settleOrganizationBilling }).create(request);
}
