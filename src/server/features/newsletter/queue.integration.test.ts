import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { newsletterLetters, newsletterSends } from '@/server/platform/db/schema';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import {
  NewsletterError,
  cancelSend,
  followPostPublications,
  listSends,
  newsletterSendStatus,
  queueNewsletter,
  segmentCounts,
} from './queue';
import { suppressAddress } from './suppressions';
import {
  SYSTEM_WRITE,
  createContent,
  publishContent,
  scheduleContent,
  unpublishContent,
} from '@/server/services/cms/writes';

// The queue on a real database: who is in each segment (opted in, verified, not suppressed;
// paid = an active or trialing plan), the one-statement fan-out, and the sends that wait for
// the post's scheduled publication (queued by it, cancelled when it is called off).

const database = testDatabase({ global: false });
const posts = findEndpoint('posts')!;

beforeAll(async () => {
  // As the server does when it starts (src/server/boot.ts).
  followPostPublications();
  const { db } = database;
  await addReaders(db, [
    { id: 'free-1' },
    { id: 'free-2', email: 'Free-2@Example.jp' },
    { id: 'paid-1', plan: 'active' },
    { id: 'trial-1', plan: 'trialing' },
    { id: 'lapsed', plan: 'canceled' },
    { id: 'comp-over', plan: 'active', provider: 'complimentary', planEnds: new Date(0) },
    { id: 'opted-out', newsletter: false, plan: 'active' },
    { id: 'unverified', verified: false },
    { id: 'bounced' },
  ]);
  await suppressAddress(db, { email: 'BOUNCED@example.jp', reason: 'bounce', actor: 'system' });
  await createContent(db, posts, { id: 'live', body: { title: '公開済み' }, status: 'publish' });
  await createContent(db, posts, { id: 'draft', body: { title: '下書き' }, status: 'draft' });
});

describe('the newsletter queue', () => {
  it('counts each segment among the readers who may receive it', async () => {
    // free-1, free-2, lapsed, comp-over (its term is over) are free; paid-1, trial-1 paid.
    expect(await segmentCounts(database.db)).toEqual({ all: 6, free: 4, paid: 2 });
  });

  it('queues one letter per reader of the segment, with the version they get', async () => {
    const { db } = database;
    const all = await queueNewsletter(db, { contentId: 'live', segment: 'all', requestedBy: null });
    expect(all).toMatchObject({ queued: 6, status: 'queued' });
    const letters = await db
      .select({
        userId: newsletterLetters.userId,
        email: newsletterLetters.email,
        audience: newsletterLetters.audience,
        status: newsletterLetters.status,
      })
      .from(newsletterLetters)
      .where(eq(newsletterLetters.sendId, all.sendId));
    expect(new Map(letters.map((l) => [l.userId, l.audience]))).toEqual(
      new Map([
        ['free-1', 'free'],
        ['free-2', 'free'],
        ['lapsed', 'free'],
        ['comp-over', 'free'],
        ['paid-1', 'paid'],
        ['trial-1', 'paid'],
      ]),
    );
    expect(letters.find((l) => l.userId === 'free-2')!.email).toBe('free-2@example.jp');
    expect(letters.every((l) => l.status === 'queued')).toBe(true);

    const paid = await queueNewsletter(db, {
      contentId: 'live',
      segment: 'paid',
      requestedBy: null,
    });
    expect(paid.queued).toBe(2);
    const free = await queueNewsletter(db, {
      contentId: 'live',
      segment: 'free',
      requestedBy: null,
    });
    expect(free.queued).toBe(4);
    expect(await newsletterSendStatus(db, free.sendId)).toEqual({
      queued: 4,
      held: 0,
      sending: 0,
      sent: 0,
      failed: 0,
      uncertain: 0,
      opened: 0,
      clicked: 0,
    });
    const listed = await listSends(db, { contentId: 'live' });
    expect(listed.map((s) => s.id)).toEqual(expect.arrayContaining([all.sendId, paid.sendId]));
    expect(listed.find((s) => s.id === paid.sendId)!.counts.queued).toBe(2);
    expect(await cancelSend(db, free.sendId)).toBe(true);
    expect((await newsletterSendStatus(db, free.sendId)).failed).toBe(4);
  });

  it('refuses a post that is not published, or not scheduled for a send with its publication', async () => {
    const { db } = database;
    const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(NewsletterError);
    await refused(queueNewsletter(db, { contentId: 'draft', segment: 'all', requestedBy: null }));
    await refused(queueNewsletter(db, { contentId: 'nope', segment: 'all', requestedBy: null }));
    await refused(
      queueNewsletter(db, {
        contentId: 'draft',
        segment: 'all',
        requestedBy: null,
        withPublication: true,
      }),
    );
  });

  it('queues a send made with the publication when the post is published, not before', async () => {
    const { db } = database;
    await createContent(db, posts, { id: 'soon', body: { title: '予約' }, status: 'draft' });
    const at = new Date('2030-01-01T00:00:00Z');
    await scheduleContent(db, posts, 'soon', at, SYSTEM_WRITE);
    const send = await queueNewsletter(db, {
      contentId: 'soon',
      segment: 'paid',
      requestedBy: null,
      withPublication: true,
    });
    expect(send).toMatchObject({ queued: 0, status: 'scheduled' });
    expect((await newsletterSendStatus(db, send.sendId)).queued).toBe(0);
    // The scheduler's publication (as of its due time) queues it in the same transaction.
    await publishContent(db, posts, 'soon', SYSTEM_WRITE, { due: at });
    expect((await newsletterSendStatus(db, send.sendId)).queued).toBe(2);
    const [row] = await db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, send.sendId));
    expect(row!.status).toBe('queued');
    // Published again later: nothing is queued twice.
    await unpublishContent(db, posts, 'soon', SYSTEM_WRITE);
    await publishContent(db, posts, 'soon', SYSTEM_WRITE);
    expect((await newsletterSendStatus(db, send.sendId)).queued).toBe(2);
  });

  it('never queues a send whose publication was called off first', async () => {
    const { db } = database;
    await createContent(db, posts, { id: 'off', body: { title: '取り消し' }, status: 'draft' });
    await scheduleContent(db, posts, 'off', new Date('2030-01-01T00:00:00Z'), SYSTEM_WRITE);
    const send = await queueNewsletter(db, {
      contentId: 'off',
      segment: 'all',
      requestedBy: null,
      withPublication: true,
    });
    await scheduleContent(db, posts, 'off', null, SYSTEM_WRITE);
    await publishContent(db, posts, 'off', SYSTEM_WRITE);
    const [row] = await db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, send.sendId));
    expect(row!.status).toBe('cancelled');
    expect((await newsletterSendStatus(db, send.sendId)).queued).toBe(0);
  });
});
