import 'server-only';
import Stripe from 'stripe';
import type { Db } from '@/server/platform/db/client';
import { type SandboxObject, insertObject, newObjectId } from './object-store';
import { scheduleDeliveries } from './webhooks';

/**
 * Stripe's events: every change the sandbox makes to a subscription or an invoice is recorded
 * as an `event` object holding a copy of the object as it was then, in the order the changes
 * happened, with its deliveries to the webhook endpoints that listen for it (webhooks.ts).
 */

export const EVENT_TYPE = 'event';

/** Top-level fields of `before` whose values differ in `after`: Stripe's previous_attributes. */
export function previousAttributes(
  before: SandboxObject,
  after: SandboxObject,
): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      previous[key] = before[key] ?? null;
    }
  }
  return previous;
}

export async function recordEvent(
  db: Db,
  type: string,
  object: SandboxObject,
  created: number,
  previous?: Record<string, unknown>,
): Promise<SandboxObject> {
  const event: SandboxObject = {
    id: newObjectId('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    data: {
      object: structuredClone(object),
      ...(previous ? { previous_attributes: previous } : {}),
    },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
  };
  event.pending_webhooks = await scheduleDeliveries(db, event);
  await insertObject(db, EVENT_TYPE, event);
  return event;
}
