import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { newsletterLetters, newsletterSends, subscriptions } from '@/server/platform/db/schema';
import { auditsOf, testDatabase } from '@test-support/route-tests';
import { startSmtpSink } from '@test-support/smtp-sink';
import { addReaders } from '@test-support/newsletter';
import {
  type ClaimedLetter,
  type DeliveryOptions,
  type OutgoingLetter,
  claimLetters,
  deliverRound,
} from './delivery';
import { cancelSend, newsletterSendStatus, queueNewsletter } from './queue';
import { BOUNCE_ACTOR, listSuppressions, suppressAddress } from './suppressions';
import { smtpLetterTransport } from './letter-transport';
import { createContent } from '@/server/services/cms/writes';

// The sender on a real database with a clock the test moves and a transport it scripts: each
// letter is sent once, refusals are retried with backoff or failed, a sender that died
// mid-transaction leaves its letter `uncertain` (never sent again), and what the reader gets
// is decided at send time.

const database = testDatabase({ global: false });
const T0 = new Date('2026-12-01T00:00:00Z');
let clock = T0.getTime();
const now = () => new Date(clock);
const advance = (ms: number) => (clock += ms);

type Refusal = { responseCode?: number; code?: string; command?: string; message: string };
let refusals: Map<string, Refusal[]>;
let sent: OutgoingLetter[];

const transport = {
  send: (letter: OutgoingLetter) => {
    const next = refusals.get(letter.to)?.shift();
    if (next) return Promise.reject(Object.assign(new Error(next.message), next));
    sent.push(letter);
    return Promise.resolve();
  },
};
const compose = (letter: ClaimedLetter): Promise<OutgoingLetter> =>
  Promise.resolve({
    to: letter.email,
    subject: `${letter.contentId} (${letter.audience})`,
    text: `${letter.name} 様`,
    html: `<p>${letter.name} 様</p>`,
    headers: { 'X-Letter': letter.id },
  });
const sender = (senderId: string, extra: Partial<DeliveryOptions> = {}): DeliveryOptions => ({
  senderId,
  compose,
  transport,
  ratePerSecond: 1_000_000,
  now,
  sleep: () => Promise.resolve(),
  ...extra,
});

async function queue(segment: 'all' | 'free' | 'paid' = 'all') {
  return queueNewsletter(database.db, {
    contentId: 'post',
    segment,
    requestedBy: null,
    now: now(),
  });
}
const lettersOf = (sendId: string) =>
  database.db
    .select()
    .from(newsletterLetters)
    .where(eq(newsletterLetters.sendId, sendId))
    .orderBy(newsletterLetters.email);

beforeAll(async () => {
  await addReaders(database.db, [
    { id: 'a' },
    { id: 'b' },
    { id: 'c' },
    { id: 'd', plan: 'active' },
  ]);
  await createContent(database.db, findEndpoint('posts')!, {
    id: 'post',
    body: { title: '配信' },
    status: 'publish',
  });
});

beforeEach(async () => {
  refusals = new Map();
  sent = [];
  // Each test starts with no letter left over from another.
  await database.db.delete(newsletterSends);
});

describe('the newsletter sender', () => {
  it('sends each queued letter once and closes the send', async () => {
    const { sendId } = await queue();
    const round = await deliverRound(database.db, sender('one'));
    expect(round).toMatchObject({ claimed: 4, sent: 4 });
    expect(sent.map((l) => l.to).sort()).toEqual([
      'a@example.jp',
      'b@example.jp',
      'c@example.jp',
      'd@example.jp',
    ]);
    expect(sent.find((l) => l.to === 'd@example.jp')!.subject).toBe('post (paid)');
    expect(await newsletterSendStatus(database.db, sendId)).toMatchObject({ sent: 4, queued: 0 });
    const letters = await lettersOf(sendId);
    expect(letters.every((l) => l.sentAt?.getTime() === clock && l.claimedBy === null)).toBe(true);
    const [send] = await database.db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, sendId));
    expect(send).toMatchObject({ status: 'done', finishedAt: now() });
    // Nothing is left: another round claims nothing.
    expect((await deliverRound(database.db, sender('two'))).claimed).toBe(0);
    expect(sent).toHaveLength(4);
  });

  it('retries a temporary refusal with exponential backoff, fails a permanent one', async () => {
    const { sendId } = await queue();
    refusals.set('a@example.jp', [
      { responseCode: 451, message: '451 4.7.1 try again later' },
      { code: 'ECONNECTION', command: 'CONN', message: 'connect ECONNREFUSED' },
    ]);
    refusals.set('b@example.jp', [{ responseCode: 550, message: '550 5.1.1 no such user' }]);
    expect(await deliverRound(database.db, sender('one'))).toMatchObject({
      sent: 2,
      retried: 1,
      failed: 1,
    });
    const [a, b] = await lettersOf(sendId);
    expect(a).toMatchObject({ status: 'queued', attempts: 1, error: '451 4.7.1 try again later' });
    expect(a!.nextAttemptAt.getTime()).toBe(clock + 60_000);
    expect(b).toMatchObject({ status: 'failed', attempts: 1 });
    // Not before its time; then a second refusal doubles the wait.
    advance(59_000);
    expect((await deliverRound(database.db, sender('one'))).claimed).toBe(0);
    advance(1_000);
    expect(await deliverRound(database.db, sender('one'))).toMatchObject({ retried: 1 });
    expect((await lettersOf(sendId))[0]!.nextAttemptAt.getTime()).toBe(clock + 120_000);
    advance(120_000);
    expect(await deliverRound(database.db, sender('one'))).toMatchObject({ sent: 1 });
    expect(await newsletterSendStatus(database.db, sendId)).toMatchObject({ sent: 3, failed: 1 });
    expect(sent.filter((l) => l.to === 'a@example.jp')).toHaveLength(1);
  });

  it('gives up on a letter after the last attempt', async () => {
    const { sendId } = await queue('paid');
    refusals.set(
      'd@example.jp',
      Array.from({ length: 3 }, () => ({ responseCode: 421, message: '421 busy' })),
    );
    for (let i = 0; i < 3; i++) {
      await deliverRound(database.db, sender('one', { maxAttempts: 3 }));
      advance(3_600_000);
    }
    expect((await lettersOf(sendId))[0]).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('marks a letter uncertain when the connection broke during the transaction', async () => {
    const { sendId } = await queue('paid');
    refusals.set('d@example.jp', [{ code: 'ESOCKET', command: 'DATA', message: 'socket hang up' }]);
    expect(await deliverRound(database.db, sender('one'))).toMatchObject({ uncertain: 1 });
    advance(10 * 3_600_000);
    await deliverRound(database.db, sender('one'));
    expect((await lettersOf(sendId))[0]!.status).toBe('uncertain');
    expect(sent).toHaveLength(0);
  });

  it('after a sender died: its started letter is uncertain, its other claims sent by another', async () => {
    const { sendId } = await queue();
    const claimed = await claimLetters(database.db, 'dead', 10, now(), 120_000);
    expect(claimed).toHaveLength(4);
    // It had committed `sending` for one letter when it was killed.
    await database.db.execute(
      sql`UPDATE newsletter_letters SET status = 'sending', attempts = 1
          WHERE id = ${claimed[0]!.id}::uuid`,
    );
    // While its lease runs, nobody touches its rows.
    expect((await deliverRound(database.db, sender('alive'))).claimed).toBe(0);
    advance(120_001);
    const round = await deliverRound(database.db, sender('alive'));
    expect(round).toMatchObject({ recovered: 1, claimed: 3, sent: 3 });
    const counts = await newsletterSendStatus(database.db, sendId);
    expect(counts).toMatchObject({ sent: 3, uncertain: 1, queued: 0, sending: 0 });
    expect(sent.map((l) => l.to)).not.toContain(claimed[0]!.email);
    const [send] = await database.db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, sendId));
    expect(send!.status).toBe('done');
  });

  it('decides at send time: unsubscribed, suppressed and cancelled letters are not sent; the plan is read then', async () => {
    const { sendId } = await queue();
    await database.db.execute(
      sql`UPDATE user_private_profiles SET newsletter = false WHERE user_id = 'a'`,
    );
    await suppressAddress(database.db, {
      email: 'b@example.jp',
      reason: 'bounce',
      actor: 'system',
    });
    await database.db
      .insert(subscriptions)
      .values({ id: 'sub-c', userId: 'c', provider: 'stripe', status: 'trialing', planName: 'P' });
    await deliverRound(database.db, sender('one'));
    expect(sent.map((l) => [l.to, l.subject])).toEqual(
      expect.arrayContaining([
        ['c@example.jp', 'post (paid)'],
        ['d@example.jp', 'post (paid)'],
      ]),
    );
    expect(sent).toHaveLength(2);
    const letters = await lettersOf(sendId);
    expect(letters.map((l) => [l.email, l.status, l.audience])).toEqual([
      ['a@example.jp', 'failed', 'free'],
      ['b@example.jp', 'failed', 'free'],
      ['c@example.jp', 'sent', 'paid'],
      ['d@example.jp', 'sent', 'paid'],
    ]);
    // Put back for the other tests.
    await database.db.execute(
      sql`UPDATE user_private_profiles SET newsletter = true WHERE user_id = 'a'`,
    );
    await database.db.execute(sql`DELETE FROM newsletter_suppressions`);
    await database.db.delete(subscriptions).where(eq(subscriptions.id, 'sub-c'));

    const cancelled = await queue();
    await cancelSend(database.db, cancelled.sendId, now());
    sent = [];
    expect((await deliverRound(database.db, sender('one'))).claimed).toBe(0);
    expect(sent).toHaveLength(0);
  });

  it('stops between letters on shutdown and gives the rest back to the queue', async () => {
    const { sendId } = await queue();
    let stopping = false;
    const slow = sender('stopping', {
      concurrency: 1,
      transport: {
        send: async (letter) => {
          await transport.send(letter);
          stopping = true;
        },
      },
    });
    expect(await deliverRound(database.db, slow, () => stopping)).toMatchObject({
      claimed: 4,
      sent: 1,
    });
    const letters = await lettersOf(sendId);
    expect(letters.filter((l) => l.status === 'queued' && l.claimedBy === null)).toHaveLength(3);
    expect(await deliverRound(database.db, sender('next'))).toMatchObject({ sent: 3 });
  });

  it('suppresses an address the SMTP server refuses for good, and only that', async () => {
    // A real server (smtp-server) over nodemailer's pooled transport: the reply to RCPT TO.
    const sink = await startSmtpSink({
      refuse: (to) =>
        ({
          'a@example.jp': { code: 554, message: '5.7.1 Relay access denied' },
          'b@example.jp': { code: 550, message: '5.1.1 No such user' },
          'c@example.jp': { code: 450, message: '4.2.1 Mailbox busy' },
        })[to] ?? null,
    });
    const smtp = smtpLetterTransport(sink.url, {
      from: 'axis <news@example.jp>',
      bounceAddress: 'bounces@example.jp',
    });
    const withId = (letter: ClaimedLetter) =>
      compose(letter).then((message) => ({ ...message, letterId: letter.id }));
    try {
      const { sendId } = await queue();
      expect(
        await deliverRound(database.db, sender('smtp', { transport: smtp, compose: withId })),
      ).toMatchObject({
        sent: 1,
        retried: 1,
        failed: 2,
      });
      const letters = await lettersOf(sendId);
      expect(letters.map((l) => [l.email, l.status, l.attempts])).toEqual([
        ['a@example.jp', 'failed', 1],
        ['b@example.jp', 'failed', 1],
        ['c@example.jp', 'queued', 1],
        ['d@example.jp', 'sent', 1],
      ]);
      expect(sink.messages.map((m) => m.to)).toEqual(['d@example.jp']);
      // The envelope sender names the letter (VERP), for the bounces that come back by mail.
      const d = letters.find((l) => l.email === 'd@example.jp')!;
      expect(sink.messages[0]!.from).toBe(`bounces+${d.id}@example.jp`);
      // The unknown mailbox is suppressed with the server's reply; the policy refusal (about
      // the sender, not the address) and the temporary one are not.
      const suppressed = await listSuppressions(database.db);
      expect(suppressed).toEqual([
        expect.objectContaining({
          email: 'b@example.jp',
          reason: 'bounce',
          note: expect.stringContaining('550 5.1.1 No such user') as unknown,
          createdBy: BOUNCE_ACTOR,
        }),
      ]);
      const audits = await auditsOf(database, 'newsletter-suppressed', 'email:b@example.jp');
      expect(audits.filter((a) => a.actor === BOUNCE_ACTOR)).toEqual([
        expect.objectContaining({ detail: { reason: 'bounce', reply: '550 5.1.1 No such user' } }),
      ]);
      // The next send leaves the address out.
      const next = await queue();
      expect((await lettersOf(next.sendId)).map((l) => l.email)).not.toContain('b@example.jp');
    } finally {
      smtp.close?.();
      await sink.close();
      await database.db.execute(sql`DELETE FROM newsletter_suppressions`);
    }
  });
});
