import 'server-only';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import { singleton } from '@/lib/singleton';
import { redactUrl } from '@/server/platform/db/client';

/**
 * Messages between the instances of the app that share one PostgreSQL server, over
 * LISTEN/NOTIFY: "this content changed", "this user's audience changed". Each instance keeps
 * its own caches; what one changes, the others hear about within milliseconds instead of at
 * their caches' expiry. Only hints travel here, never data: a lost message costs freshness,
 * and after a reconnection (when messages may have been lost) every `onBusGap` handler runs so
 * that caches start again from the database. The embedded database has one process: no bus.
 */

export const CHANNEL = 'axis_cluster';

const topicSchemas = {
  content: z.object({
    endpoint: z.string().max(200),
    id: z.string().max(200),
    fields: z.union([z.literal('*'), z.array(z.string().max(100)).max(200)]).optional(),
    membership: z.boolean().optional(),
    narrows: z.boolean().optional(),
  }),
  audience: z.object({ userId: z.string().min(1).max(200) }),
} as const;
export type Topic = keyof typeof topicSchemas;
export type TopicData<T extends Topic> = z.infer<(typeof topicSchemas)[T]>;

type Handler = (data: unknown) => void;

const state = singleton('cluster-bus', () => ({
  instanceId: randomUUID(),
  handlers: new Map<Topic, Set<Handler>>(),
  gapHandlers: new Set<() => void>(),
  /** Set while the bus runs: sends one notification to the other instances. */
  send: null as ((payload: string) => Promise<void>) | null,
}));

/** Handle what other instances broadcast on `topic` (never this instance's own messages). */
export function onBroadcast<T extends Topic>(
  topic: T,
  handler: (data: TopicData<T>) => void,
): () => void {
  const set = state.handlers.get(topic) ?? new Set<Handler>();
  state.handlers.set(topic, set);
  const untyped = handler as Handler;
  set.add(untyped);
  return () => set.delete(untyped);
}

/** Run when messages may have been missed (the listening connection was lost and is back). */
export function onBusGap(handler: () => void): () => void {
  state.gapHandlers.add(handler);
  return () => state.gapHandlers.delete(handler);
}

/** Tell the other instances; without a running bus (embedded database, tests) nothing to do. */
export function broadcast<T extends Topic>(topic: T, data: TopicData<T>): void {
  const send = state.send;
  if (!send) return;
  const payload = JSON.stringify({ from: state.instanceId, topic, data });
  send(payload).catch((error: unknown) => {
    // The change itself is committed; the others see it at their caches' expiry.
    console.error('[cluster] broadcast failed:', topic, errorText(error));
  });
}

const envelope = z.object({
  from: z.string(),
  topic: z.enum(Object.keys(topicSchemas) as [Topic, ...Topic[]]),
  data: z.unknown(),
});

/** A notification from the channel: handed to the topic's handlers, unless it is our own. */
export function receive(payload: string | undefined): void {
  let parsed: z.infer<typeof envelope>;
  try {
    parsed = envelope.parse(JSON.parse(payload ?? ''));
  } catch {
    return; // not ours to read (someone else's NOTIFY on the channel, or a newer version)
  }
  if (parsed.from === state.instanceId) return;
  const data = topicSchemas[parsed.topic].safeParse(parsed.data);
  if (!data.success) return;
  for (const handler of state.handlers.get(parsed.topic) ?? []) {
    try {
      handler(data.data);
    } catch (error) {
      console.error('[cluster] handler failed:', parsed.topic, errorText(error));
    }
  }
}

function gap(): void {
  for (const handler of state.gapHandlers) {
    try {
      handler();
    } catch (error) {
      console.error('[cluster] gap handler failed:', errorText(error));
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type ClusterBus = { stop: () => Promise<void>; connected: () => boolean };

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15_000;

/**
 * Listens on the channel over a connection of its own (a pooled one would drop the LISTEN when
 * returned), reconnecting with backoff; sends through a second small pool so that a busy
 * application pool never delays a broadcast.
 */
export async function startClusterBus(databaseUrl: string): Promise<ClusterBus> {
  const sender = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  sender.on('error', () => {}); // an idle sender lost: the next send opens another
  let client: pg.Client | null = null;
  let stopped = false;
  let connected = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | null = null;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === CHANNEL) receive(message.payload);
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    connected = true;
    retryMs = RETRY_FIRST_MS;
  }

  function lost(which: pg.Client): void {
    if (which !== client) return;
    client = null;
    connected = false;
    which.end().catch(() => {});
    if (stopped) return;
    console.error(`[cluster] lost the listening connection to ${redactUrl(databaseUrl)}`);
    schedule();
  }

  function schedule(): void {
    timer = setTimeout(() => {
      timer = null;
      connect().then(
        () => {
          if (stopped) return;
          console.log('[cluster] listening again; caches start afresh');
          gap();
        },
        () => {
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
          if (!stopped) schedule();
        },
      );
    }, retryMs);
    timer.unref();
  }

  await connect();
  state.send = async (payload) => {
    await sender.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  };

  return {
    connected: () => connected,
    stop: async () => {
      stopped = true;
      state.send = null;
      if (timer) clearTimeout(timer);
      const last = client;
      client = null;
      connected = false;
      await Promise.allSettled([last?.end(), sender.end()]);
    },
  };
}
