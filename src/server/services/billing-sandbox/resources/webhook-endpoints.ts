import 'server-only';
import { invalidParam, invalidRequest, missingParam, resourceMissing } from '../errors';
import type { Db } from '@/server/platform/db/client';
import {
  type SandboxObject,
  insertObject,
  newObjectId,
  nowSeconds,
  requireObject,
  saveObject,
} from '../object-store';
import type { Params } from '../params';
import { WEBHOOK_ENDPOINT_TYPE, newEndpointSecret, saveEndpointSecret } from '../webhooks';
import { type Route, type RouteContext, changeLocked, listRoute } from './route';

/**
 * /v1/webhook_endpoints: create (the `secret` is answered only then, as on Stripe), retrieve,
 * update (`url`, `enabled_events`, `disabled`, `description`, `metadata`), delete, list.
 * Deliveries: webhooks.ts.
 */

const EVENT_NAME = /^(\*|[a-z_]+(\.[a-z_]+)+)$/;

function readUrl(params: Params): string | undefined {
  const url = params.string('url', 2048);
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParam('url', 'Invalid URL: url must be a valid URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalidParam('url', 'Invalid URL: url must be an http or https URL.');
  }
  return url;
}

function readEvents(params: Params): string[] | undefined {
  const events = params.stringArray('enabled_events', 300);
  if (events === undefined) return undefined;
  if (events.length === 0) throw missingParam('enabled_events');
  for (const name of events) {
    if (!EVENT_NAME.test(name)) {
      throw invalidRequest(
        `Invalid enabled_events: ${name} is not an event type.`,
        'enabled_events',
      );
    }
  }
  return events;
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const url = readUrl(params);
  const events = readEvents(params);
  const description = params.nullableString('description', 5000);
  const metadata = params.metadata() ?? {};
  params.finish();
  if (!url) throw missingParam('url');
  if (!events) throw missingParam('enabled_events');
  const endpoint: SandboxObject = {
    id: newObjectId('we'),
    object: 'webhook_endpoint',
    api_version: null,
    application: null,
    created: nowSeconds(),
    description: description ?? null,
    enabled_events: events,
    livemode: false,
    metadata,
    status: 'enabled',
    url,
  };
  const secret = newEndpointSecret();
  await context.db.transaction(async (db) => {
    await insertObject(db, WEBHOOK_ENDPOINT_TYPE, endpoint);
    await saveEndpointSecret(db, endpoint, secret);
  });
  return { ...endpoint, secret };
}

/** A deleted endpoint is kept (see remove), and answered as Stripe's 404 like a missing one. */
function refuseDeleted(endpoint: SandboxObject): SandboxObject {
  if (endpoint.status === 'deleted') throw resourceMissing('webhook_endpoint', endpoint.id);
  return endpoint;
}

/** Runs `change` on the route's endpoint under its row lock (changeLocked), unless deleted. */
function changeEndpoint(
  context: RouteContext,
  change: (db: Db, current: SandboxObject) => Promise<SandboxObject>,
): Promise<SandboxObject> {
  return changeLocked(context, WEBHOOK_ENDPOINT_TYPE, (db, current) =>
    change(db, refuseDeleted(current)),
  );
}

async function update(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  return changeEndpoint(context, async (db, current) => {
    const url = readUrl(params);
    const events = readEvents(params);
    const description = params.nullableString('description', 5000);
    const disabled = params.boolean('disabled');
    const metadata = params.metadata(current.metadata as Record<string, string>);
    params.finish();
    const next: SandboxObject = { ...current };
    if (url !== undefined) next.url = url;
    if (events !== undefined) next.enabled_events = events;
    if (description !== undefined) next.description = description;
    if (disabled !== undefined) next.status = disabled ? 'disabled' : 'enabled';
    if (metadata !== undefined) next.metadata = metadata;
    await saveObject(db, next);
    return next;
  });
}

async function remove(context: RouteContext): Promise<SandboxObject> {
  context.params.finish();
  return changeEndpoint(context, async (db, current) => {
    // Kept, out of every list and delivery, so that its pending deliveries end as failed.
    await saveObject(db, { ...current, status: 'deleted' });
    return { id: current.id, object: 'webhook_endpoint', created: current.created, deleted: true };
  });
}

export const webhookEndpointRoutes: Route[] = [
  { method: 'POST', pattern: ['webhook_endpoints'], handle: create },
  listRoute(['webhook_endpoints'], WEBHOOK_ENDPOINT_TYPE, {
    filters: () => [{ field: 'status', in: ['enabled', 'disabled'] }],
  }),
  {
    method: 'GET',
    pattern: ['webhook_endpoints', ':id'],
    handle: async (context) => {
      context.params.finish();
      return refuseDeleted(
        await requireObject(context.db, WEBHOOK_ENDPOINT_TYPE, context.id ?? ''),
      );
    },
  },
  { method: 'POST', pattern: ['webhook_endpoints', ':id'], handle: update },
  { method: 'DELETE', pattern: ['webhook_endpoints', ':id'], handle: remove },
];
