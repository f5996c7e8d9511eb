import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { resourceMissing } from '../errors';
import { portalPagePath } from '../hosted/paths';
import {
  type SandboxObject,
  findObject,
  insertObject,
  newObjectId,
  nowSeconds,
  requireObject,
} from '../object-store';
import type { SiteRoute, SiteRouteContext } from './route';
import { readUrl } from './checkout-sessions';

/**
 * /v1/billing_portal/sessions (create; Stripe has no other call on them). The session's `url`
 * is the sandbox's portal page (hosted/portal-page.ts), which works for an hour after the
 * session is made. The sandbox has one portal configuration, fixed: cancel at period end,
 * resume, change plan among the active recurring prices without prorations, update the card,
 * see the invoices.
 */

export const PORTAL_SESSION_TYPE = 'billing_portal.session';
export const PORTAL_CONFIGURATION_ID = 'bpc_sandbox_default';
/** Stripe's portal sessions are short-lived; its object does not say how long. */
export const PORTAL_SESSION_LIFETIME = 60 * 60;

const LOCALES = ['auto', 'ja', 'en'] as const;

async function create(context: SiteRouteContext): Promise<SandboxObject> {
  const { params, db } = context;
  const customerId = params.requiredString('customer', 200);
  const returnUrl = readUrl(params, 'return_url');
  const locale = params.oneOf('locale', LOCALES);
  const configuration = params.string('configuration', 200);
  params.finish();
  if (configuration !== undefined && configuration !== PORTAL_CONFIGURATION_ID) {
    throw resourceMissing('configuration', configuration, 'configuration');
  }
  await requireObject(db, 'customer', customerId, { param: 'customer' });
  const id = newObjectId('bps');
  const session: SandboxObject = {
    id,
    object: 'billing_portal.session',
    configuration: PORTAL_CONFIGURATION_ID,
    created: nowSeconds(),
    customer: customerId,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: locale ?? null,
    on_behalf_of: null,
    return_url: returnUrl ?? null,
    url: `${context.origin}${portalPagePath(id)}`,
  };
  await insertObject(db, PORTAL_SESSION_TYPE, session);
  return session;
}

/** A portal session and whether its page still works. */
export async function findPortalSession(
  db: Db,
  id: string,
): Promise<{ session: SandboxObject; expired: boolean } | null> {
  const session = await findObject(db, PORTAL_SESSION_TYPE, id);
  if (!session) return null;
  return { session, expired: nowSeconds() >= session.created + PORTAL_SESSION_LIFETIME };
}

export const billingPortalSessionRoutes: SiteRoute[] = [
  { method: 'POST', pattern: ['billing_portal', 'sessions'], handle: create },
];
