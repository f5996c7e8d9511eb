import 'server-only';
import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import {
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  nowSeconds,
  saveObject,
} from './object-store';

/**
 * Webhook delivery. When an event is recorded, one delivery is scheduled for each enabled
 * endpoint whose `enabled_events` name its type (or `*`), and the event's `pending_webhooks`
 * counts them. `deliverPendingEvents` POSTs every due delivery, oldest event first, signed as
 * Stripe signs (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256 of `${t}.${body}` with the
 * endpoint's `whsec_…` secret). A 2xx answer delivers it; anything else (another status, a
 * network error, no answer within 10 s) is retried after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h
 * and 24 h, so at most 8 attempts over about two days (Stripe retries for up to three days);
 * after the last the delivery is `failed`. Delivery times are real time, not a test clock's.
 */

export const WEBHOOK_ENDPOINT_TYPE = 'webhook_endpoint';
const ENDPOINT_SECRET_TYPE = 'sandbox.webhook_endpoint_secret';
const DELIVERY_TYPE = 'sandbox.webhook_delivery';

/** Seconds to wait after each failed attempt; one more failure than entries ends it. */
export const WEBHOOK_RETRY_DELAYS = [60, 300, 1800, 7200, 18_000, 36_000, 86_400];
const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a delivery being attempted is held against a concurrent run. */
const CLAIM_SECONDS = 60;

export function newEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, '0')}`;
}

export async function saveEndpointSecret(
  db: Db,
  endpoint: SandboxObject,
  secret: string,
): Promise<void> {
  await insertObject(db, ENDPOINT_SECRET_TYPE, {
    id: `whsecret_${endpoint.id}`,
    object: ENDPOINT_SECRET_TYPE,
    created: endpoint.created,
    secret,
  });
}

async function endpointSecret(db: Db, endpointId: string): Promise<string | null> {
  const found = await findObject(db, ENDPOINT_SECRET_TYPE, `whsecret_${endpointId}`);
  return typeof found?.secret === 'string' ? found.secret : null;
}

/** Stripe's signature header for a payload sent at `timestamp`. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

function listens(endpoint: SandboxObject, type: string): boolean {
  const events = endpoint.enabled_events as string[];
  return events.includes('*') || events.includes(type);
}

/** Schedules the event's deliveries and answers how many (its `pending_webhooks`). */
export async function scheduleDeliveries(db: Db, event: SandboxObject): Promise<number> {
  const endpoints = await findAllObjects(db, WEBHOOK_ENDPOINT_TYPE, [
    { field: 'status', in: ['enabled'] },
  ]);
  let count = 0;
  for (const endpoint of endpoints) {
    if (!listens(endpoint, String(event.type))) continue;
    count++;
    await insertObject(db, DELIVERY_TYPE, {
      id: newObjectId('whdel'),
      object: DELIVERY_TYPE,
      created: nowSeconds(),
      event: event.id,
      endpoint: endpoint.id,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: nowSeconds(),
      attempts: [],
    });
  }
  return count;
}

export type DeliveryAttempt = {
  at: number;
  status: number | null;
  error: string | null;
  /** Not to be retried: the endpoint was disabled or deleted. */
  final?: boolean;
};

export type DeliveryOptions = {
  fetch?: typeof fetch;
  /** Unix seconds; the time deliveries are due by and signatures are made at. */
  now?: number;
};

export type DeliveryReport = { delivered: number; retrying: number; failed: number };

/** The deliveries of an event, for tests and the staff's view: attempts and status. */
export async function deliveriesOf(db: Db, eventId: string): Promise<SandboxObject[]> {
  return findAllObjects(db, DELIVERY_TYPE, [{ field: 'event', in: [eventId] }]);
}

async function claim(db: Db, id: string, now: number): Promise<SandboxObject | null> {
  return db.transaction(async (tx) => {
    const delivery = await findObjectForUpdate(tx, DELIVERY_TYPE, id);
    if (!delivery || delivery.status !== 'pending') return null;
    if ((delivery.next_attempt_at as number) > now) return null;
    await saveObject(tx, { ...delivery, next_attempt_at: now + CLAIM_SECONDS });
    return delivery;
  });
}

async function attempt(
  db: Db,
  delivery: SandboxObject,
  fetchImpl: typeof fetch,
  now: number,
): Promise<DeliveryAttempt> {
  const endpoint = await findObject(db, WEBHOOK_ENDPOINT_TYPE, String(delivery.endpoint));
  const event = await findObject(db, 'event', String(delivery.event));
  const secret = await endpointSecret(db, String(delivery.endpoint));
  if (!endpoint || !event || !secret || endpoint.status !== 'enabled') {
    return { at: now, status: null, error: 'endpoint disabled or deleted', final: true };
  }
  const payload = JSON.stringify(event, null, 2);
  try {
    const response = await fetchImpl(String(endpoint.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signatureHeader(payload, secret, now),
      },
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => {});
    return { at: now, status: response.status, error: null };
  } catch (error) {
    return { at: now, status: null, error: error instanceof Error ? error.message : 'failed' };
  }
}

async function settle(db: Db, delivery: SandboxObject, result: DeliveryAttempt, now: number) {
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const attempts = (delivery.attempt_count as number) + 1;
  const delay = WEBHOOK_RETRY_DELAYS[attempts - 1];
  const status = ok ? 'delivered' : delay === undefined || result.final ? 'failed' : 'pending';
  await db.transaction(async (tx) => {
    await saveObject(tx, {
      ...delivery,
      status,
      attempt_count: attempts,
      next_attempt_at: status === 'pending' ? now + (delay ?? 0) : null,
      attempts: [...(delivery.attempts as DeliveryAttempt[]), result],
    });
    if (status === 'pending') return;
    const event = await findObjectForUpdate(tx, 'event', String(delivery.event));
    if (event) {
      const pending = Math.max(0, (event.pending_webhooks as number) - 1);
      await saveObject(tx, { ...event, pending_webhooks: pending });
    }
  });
  return status;
}

/**
 * Attempts every delivery due by `now`, one at a time in event order, and answers how they
 * went. Safe to run from several places at once: each delivery is claimed before it is sent.
 */
export async function deliverPendingEvents(
  db: Db,
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? nowSeconds();
  const due = await findAllObjects(db, DELIVERY_TYPE, [
    { field: 'status', in: ['pending'] },
    { field: 'next_attempt_at', lte: now },
  ]);
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0 };
  for (const found of due) {
    const delivery = await claim(db, found.id, now);
    if (!delivery) continue;
    const result = await attempt(db, delivery, fetchImpl, now);
    const status = await settle(db, delivery, result, now);
    if (status === 'delivered') report.delivered++;
    else if (status === 'failed') report.failed++;
    else report.retrying++;
  }
  return report;
}
