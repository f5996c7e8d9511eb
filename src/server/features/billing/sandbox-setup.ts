import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { billingSandboxSettings } from '@/server/platform/db/schema';
import { billingProvider } from './provider';

/**
 * On the sandbox, the app registers its own webhook endpoint, as an operator does once in
 * Stripe's dashboard, and keeps the endpoint's signing secret (shown once, on create) beside
 * the sandbox's other settings. With Stripe, the secret is STRIPE_WEBHOOK_SECRET.
 */

export const WEBHOOK_PATH = '/api/webhooks/billing';
const ENDPOINT_SETTING = 'app_webhook_endpoint';
const SECRET_SETTING = 'app_webhook_secret';

async function setting(db: Db, name: string): Promise<string | null> {
  const [row] = await db
    .select({ value: billingSandboxSettings.value })
    .from(billingSandboxSettings)
    .where(eq(billingSandboxSettings.name, name));
  return row?.value ?? null;
}

async function store(db: Db, name: string, value: string): Promise<void> {
  await db
    .insert(billingSandboxSettings)
    .values({ name, value })
    .onConflictDoUpdate({ target: billingSandboxSettings.name, set: { value } });
}

/** Makes sure the sandbox sends every event to this site's webhook URL. */
export async function ensureSandboxWebhook(db: Db): Promise<void> {
  const { stripe } = await billingProvider(db);
  const url = `${env().SITE_URL}${WEBHOOK_PATH}`;
  const endpointId = await setting(db, ENDPOINT_SETTING);
  if (endpointId && (await setting(db, SECRET_SETTING))) {
    const endpoint = await stripe.webhookEndpoints.retrieve(endpointId).catch(() => null);
    if (endpoint) {
      // SITE_URL moved (another port): the same endpoint, at the new address.
      if (endpoint.url !== url || endpoint.status !== 'enabled') {
        await stripe.webhookEndpoints.update(endpointId, { url, disabled: false });
      }
      return;
    }
  }
  const created = await stripe.webhookEndpoints.create({
    url,
    enabled_events: ['*'],
    description: 'このサイトの Webhook（自動登録）',
  });
  if (!created.secret) throw new Error('billing sandbox: the webhook endpoint has no secret');
  await store(db, SECRET_SETTING, created.secret);
  await store(db, ENDPOINT_SETTING, created.id);
}

/** The secret that signs the webhook events this site accepts. */
export async function webhookSecret(db: Db): Promise<string | null> {
  return env().STRIPE_WEBHOOK_SECRET ?? (await setting(db, SECRET_SETTING));
}
