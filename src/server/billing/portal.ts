import 'server-only';
import { env } from '@/env';
import { recordAudit } from '@/server/audit/audit-log';
import type { Db } from '@/server/db/client';
import { customerIdOf } from './customers';
import { billingProvider } from './provider';

/** The provider's customer portal (SPEC §7: POST /api/create-customer-portal). */

export class PortalForbidden extends Error {}

/** A portal session for the signed-in owner of `customerId`; anyone else: PortalForbidden. */
export async function createPortalSession(
  db: Db,
  userId: string,
  customerId: string,
  ip: string | null,
): Promise<string> {
  const own = await customerIdOf(db, userId);
  if (!own || own !== customerId) throw new PortalForbidden('not the owner of this customer');
  const { stripe } = await billingProvider(db);
  const session = await stripe.billingPortal.sessions.create({
    customer: own,
    return_url: `${env().SITE_URL}/service-plans`,
    locale: 'ja',
  });
  await recordAudit(db, {
    actor: userId,
    action: 'billing.portal.open',
    target: userId,
    ip,
    detail: { session: session.id },
  });
  return session.url;
}
