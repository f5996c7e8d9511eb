import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { audienceChangedSince } from '@/server/features/audience/audience-changes';
import {
  emitContentChange,
  onContentChange,
  type ContentChange,
} from '@/server/services/cms/events';
import { CHANNEL, type ClusterBus, broadcast, onBroadcast, onBusGap, startClusterBus } from './bus';

const serverUrl = process.env.DATABASE_URL ?? '';

/** Resolves with the first value `collect` pushes, or rejects after `ms`. */
function next<T>(subscribe: (push: (value: T) => void) => () => void, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`nothing within ${ms} ms`));
    }, ms);
    const stop = subscribe((value) => {
      clearTimeout(timer);
      stop();
      resolve(value);
    });
  });
}

/** Another instance, as the channel sees it: its own connection and its own instance id. */
async function otherInstance() {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`LISTEN ${CHANNEL}`);
  return {
    client,
    say: (topic: string, data: unknown, from = 'other-instance') =>
      client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ from, topic, data })]),
    heard: () =>
      next<string>((push) => {
        const on = (m: pg.Notification) => push(m.payload ?? '');
        client.on('notification', on);
        return () => client.off('notification', on);
      }),
  };
}

describe.runIf(serverUrl)('cluster bus on a PostgreSQL server (LISTEN/NOTIFY)', () => {
  let bus: ClusterBus;
  let other: Awaited<ReturnType<typeof otherInstance>>;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    bus = await startClusterBus(serverUrl);
    other = await otherInstance();
  });
  afterEach(() => cleanups.splice(0).forEach((stop) => stop()));
  afterAll(async () => {
    await bus.stop();
    await other.client.end();
  });

  it('tells the other instances of a content change made here, and this process at once', async () => {
    const local: ContentChange[] = [];
    cleanups.push(onContentChange((change) => local.push(change)));
    const heard = other.heard();
    emitContentChange({ endpoint: 'posts', id: 'abc' });
    expect(local).toEqual([{ endpoint: 'posts', id: 'abc' }]);
    const message = JSON.parse(await heard) as { topic: string; data: unknown; from: string };
    expect(message.topic).toBe('content');
    expect(message.data).toEqual({ endpoint: 'posts', id: 'abc' });
  });

  it("hands another instance's content change to this process's listeners", async () => {
    const heard = next<ContentChange>((push) => onContentChange(push));
    await other.say('content', { endpoint: 'news', id: 'n1' });
    expect(await heard).toEqual({ endpoint: 'news', id: 'n1' });
  });

  it('ignores its own messages coming back, and anything it cannot read', async () => {
    const seen: unknown[] = [];
    cleanups.push(onBroadcast('audience', (data) => seen.push(data)));
    // Our own broadcast comes back on our listening connection: not handled twice.
    broadcast('audience', { userId: 'own' });
    await other.heard();
    await other.client.query('SELECT pg_notify($1, $2)', [CHANNEL, 'not json']);
    await other.say('audience', { userId: '' }); // fails the topic's schema
    await other.say('no-such-topic', { userId: 'x' });
    // A valid message after them proves the bus read past the junk, in order.
    const last = next<unknown>((push) => onBroadcast('audience', push));
    await other.say('audience', { userId: 'u-2' });
    expect(await last).toEqual({ userId: 'u-2' });
    expect(seen).toEqual([{ userId: 'u-2' }]);
  });

  it("distrusts a reader's audience cookie at once when another instance changed their plan", async () => {
    const signedAt = Date.now() - 1_000; // the cookie this instance signed a second ago
    expect(audienceChangedSince('reader-remote', signedAt)).toBe(false);
    const heard = next<unknown>((push) => onBroadcast('audience', push));
    await other.say('audience', { userId: 'reader-remote' });
    await heard;
    expect(audienceChangedSince('reader-remote', signedAt)).toBe(true);
    expect(audienceChangedSince('someone-else', signedAt)).toBe(false);
  });

  it('reconnects after losing its connection, and says that messages may have been missed', async () => {
    const gap = next<true>((push) => onBusGap(() => push(true)), 10_000);
    await other.client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE pid <> pg_backend_pid() AND query = $1`,
      [`LISTEN ${CHANNEL}`],
    );
    await gap;
    expect(bus.connected()).toBe(true);
    const heard = next<ContentChange>((push) => onContentChange(push));
    await other.say('content', { endpoint: 'posts', id: 'after' });
    expect(await heard).toEqual({ endpoint: 'posts', id: 'after' });
  });
});
