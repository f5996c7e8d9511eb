import { organizationsHandlers } from '@/server/features/organizations/http';
import { settleOrganizationBilling } from '@/server/features/invoice-billing';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

/** Saves an organisation and bills its seats (docs/decisions/059-invoice-billing.md). */
export const POST = paramRoute('id', (request, id) =>
  organizationsHandlers({ afterSave: settleOrganizationBilling }).update(request, id),
);
