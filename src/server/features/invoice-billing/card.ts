import 'server-only';
import { env } from '@/env';
import { type Actor, recordActorAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { billingProvider, listPlans } from '@/server/features/billing';
import { type Organization, organizationById } from '@/server/features/organizations';
import { RUNNING_CARD_STATUSES, startOrganizationBilling } from './organizations';

/**
 * 法人プラン paid by card (docs/decisions/059-invoice-billing.md, amendment "card"): the
 * organisation's admin confirms the terms (seats × the plan's price) and goes to the same hosted
 * Checkout the individual plans use, in `subscription` mode for the organisation's own customer,
 * `quantity` = its seats. The subscription is kept on the organisation by its
 * `checkout.session.completed` / `customer.subscription.*` events (applyOrganizationBillingEvent).
 */

export type CardCheckoutTerms = {
  org: Organization;
  plan: Awaited<ReturnType<typeof listPlans>>[number];
  /** The seats to pay for: those from the next renewal when staff set them, else the current. */
  seats: number;
};

export type CardCheckoutRefusal = { ok: false; status: 409; message: string };

/** The organisation page after a card checkout, and its confirmation screen. */
export const organizationPagePath = (organizationId: string) =>
  `/account/organization?org=${encodeURIComponent(organizationId)}`;
export const cardCheckoutPagePath = (organizationId: string) =>
  `/account/organization/checkout?org=${encodeURIComponent(organizationId)}`;

/**
 * What a card checkout would sell this organisation, or why it cannot start: only a card-billed
 * organisation without a running subscription, whose plan is on sale. Who may ask (its admins)
 * is the caller's check.
 */
export async function cardCheckoutTerms(
  db: Db,
  organizationId: string,
): Promise<({ ok: true } & CardCheckoutTerms) | CardCheckoutRefusal> {
  const org = await organizationById(db, organizationId);
  if (!org) return { ok: false, status: 409, message: '法人が見つかりません。' };
  if (org.billing !== 'card')
    return {
      ok: false,
      status: 409,
      message: 'この法人は請求書払いです。カードでのお支払いには切り替えられません。',
    };
  if (org.providerSubscriptionId)
    return { ok: false, status: 409, message: 'すでにカードでお支払いいただいています。' };
  const plan = (await listPlans(db)).find((p) => p.key === org.planKey && p.active);
  if (!plan)
    return {
      ok: false,
      status: 409,
      message: 'このプランは現在お申し込みいただけません。サイトの運営者にご連絡ください。',
    };
  return { ok: true, org, plan, seats: org.renewalSeats ?? org.seats };
}

/**
 * Starts the organisation's card checkout and answers the provider's page to send the admin to.
 * Refused when a subscription is already running at the provider (a checkout paid a moment ago
 * whose events are still on their way): never two for one organisation.
 */
export async function startOrganizationCheckout(
  db: Db,
  organizationId: string,
  actor: Actor,
): Promise<{ ok: true; url: string } | CardCheckoutRefusal> {
  const terms = await cardCheckoutTerms(db, organizationId);
  if (!terms.ok) return terms;
  const started = await startOrganizationBilling(db, organizationId, actor);
  if (!started.ok) return { ok: false, status: 409, message: started.message };
  const customer = (await organizationById(db, organizationId))?.providerCustomerId;
  if (!customer) throw new Error('organizations: billing started without a customer');
  const { stripe } = await billingProvider(db);
  const live = await stripe.subscriptions.list({ customer, status: 'all', limit: 10 });
  if (live.data.some((s) => RUNNING_CARD_STATUSES.includes(s.status)))
    return {
      ok: false,
      status: 409,
      message: 'お支払いの手続きはすでに完了しています。反映まで少し時間がかかることがあります。',
    };
  const { SITE_URL } = env();
  const metadata = { organization_id: terms.org.id };
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    line_items: [{ price: terms.plan.priceId, quantity: terms.seats }],
    subscription_data: { metadata },
    metadata,
    client_reference_id: terms.org.id,
    locale: 'ja',
    success_url: `${SITE_URL}${organizationPagePath(terms.org.id)}&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${SITE_URL}${cardCheckoutPagePath(terms.org.id)}`,
  });
  if (!session.url) throw new Error('organizations: the checkout session has no URL');
  await recordActorAction(db, actor, {
    action: 'billing.organization_checkout.started',
    target: `organization:${terms.org.id}`,
    detail: {
      session: session.id,
      price: terms.plan.priceId,
      seats: terms.seats,
      customer,
    },
  });
  return { ok: true, url: session.url };
}
