import 'server-only';
import { AppError } from '@/lib/errors';
import { env } from '@/env';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { customerIdOf } from './customers';
import { billingProvider } from './provider';

/** The provider's customer portal (SPEC §7: POST /api/create-customer-portal). */

/** Someone asked for a portal of a customer that is not theirs. */
export class PortalForbidden extends AppError {
  constructor() {
    super('この操作を行う権限がありません。', { status: 403, code: 'portal-forbidden' });
    this.name = 'PortalForbidden';
  }
}

/** A portal session for the signed-in owner of `customerId`; anyone else: PortalForbidden. */
export async function createPortalSession(
  db: Db,
  userId: string,
  customerId: string,
  ip: string | null,
): Promise<string> {
  const own = await customerIdOf(db, userId);
  if (!own || own !== customerId) throw new PortalForbidden();
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
