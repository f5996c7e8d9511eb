import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { queryRows } from '@/server/platform/db/client';
import { newsletterLetters, newsletterSends } from '@/server/platform/db/schema';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { createContent, scheduleContent } from '@/server/services/cms/writes';
import { type ClaimedLetter, type OutgoingLetter, deliverRound } from './delivery';
import {
  cancelSend,
  newsletterSendStatus,
  queueNewsletter,
  queueSendsOnPublication,
} from './queue';
import { decideSubjectTests, subjectFigures } from './subject-test';

/**
 * A subject line test (docs/decisions/063-newsletter-analytics.md): a sample gets the subjects
 * split evenly, the rest wait; after the wait the subject with more clicks goes to the rest.
 * No reader ever gets two letters of the send, however often (or concurrently) the winner step
 * runs and whichever senders deliver.
 */

const database = testDatabase({ global: false });
const READERS = 50;
const T0 = new Date('2026-12-01T00:00:00Z');
const hours = (n: number) => new Date(T0.getTime() + n * 3_600_000);
const SUBJECTS = ['椅子の百年', '百年座れる椅子', 'なぜ椅子は百年もつのか'];

let mail: OutgoingLetter[] = [];
const compose = (letter: ClaimedLetter) =>
  Promise.resolve({
    letterId: letter.id,
    to: letter.email,
    subject: letter.subject ?? 'title',
    text: 'body',
    html: '<p>body</p>',
    headers: {},
  });
const round = (senderId: string, at: Date) =>
  deliverRound(database.db, {
    senderId,
    compose,
    transport: {
      send: (m: OutgoingLetter) => {
        mail.push(m);
        return Promise.resolve();
      },
    },
    ratePerSecond: 1_000_000,
    sleep: () => Promise.resolve(),
    now: () => at,
  });
const letters = (sendId: string) =>
  database.db.select().from(newsletterLetters).where(eq(newsletterLetters.sendId, sendId));

beforeAll(async () => {
  await addReaders(
    database.db,
    Array.from({ length: READERS }, (_, i) => ({ id: `r${i}` })),
  );
  await createContent(database.db, findEndpoint('posts')!, {
    id: 'chair',
    body: { title: '椅子' },
    status: 'publish',
  });
});

describe('a subject line test', () => {
  it('sends the sample evenly, waits, then the winner by clicks to the rest: one letter each', async () => {
    mail = [];
    const { sendId, queued } = await queueNewsletter(database.db, {
      contentId: 'chair',
      segment: 'all',
      requestedBy: null,
      now: T0,
      test: { subjects: SUBJECTS, samplePercent: 30, waitHours: 4, metric: 'clicks' },
    });
    expect(queued).toBe(READERS);
    const rows = await letters(sendId);
    const sample = rows.filter((r) => r.variant !== null);
    expect(sample).toHaveLength(15); // 30 % of 50
    expect(rows.filter((r) => r.status === 'held')).toHaveLength(35);
    for (const v of [0, 1, 2]) expect(sample.filter((r) => r.variant === v)).toHaveLength(5);

    await round('a', hours(0));
    expect(mail).toHaveLength(15);
    expect(new Set(mail.map((m) => m.subject))).toEqual(new Set(SUBJECTS));
    // Before the wait is over, nothing more goes, and the send is not done.
    await round('b', hours(3));
    expect(mail).toHaveLength(15);
    expect((await newsletterSendStatus(database.db, sendId)).held).toBe(35);

    // The second subject gets two clicks, the first more opens: clicks decide.
    const byVariant = (v: number) => sample.filter((r) => r.variant === v).map((r) => r.id);
    await database.db.execute(
      sql`UPDATE newsletter_letters SET clicked_at = ${T0.toISOString()}::timestamptz,
          opened_at = ${T0.toISOString()}::timestamptz
          WHERE id IN (${sql.join(
            byVariant(1)
              .slice(0, 2)
              .map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
    await database.db.execute(
      sql`UPDATE newsletter_letters SET opened_at = ${T0.toISOString()}::timestamptz
          WHERE id IN (${sql.join(
            byVariant(0).map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );

    // The winner step, run twice at once and again after, then two senders: one letter each.
    const decided = await Promise.all([
      decideSubjectTests(database.db, hours(4)),
      decideSubjectTests(database.db, hours(4)),
    ]);
    expect(decided[0] + decided[1]).toBe(1);
    expect(await decideSubjectTests(database.db, hours(5))).toBe(0);
    await Promise.all([round('a', hours(4)), round('b', hours(4))]);
    await round('c', hours(5));
    expect(mail).toHaveLength(READERS);
    expect(new Set(mail.map((m) => m.to)).size).toBe(READERS);
    expect(mail.slice(15).every((m) => m.subject === SUBJECTS[1])).toBe(true);
    const [send] = await database.db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, sendId));
    expect(send).toMatchObject({ winner: 1, status: 'done' });
    const figures = await subjectFigures(database.db, sendId);
    expect(figures.map((f) => [f.sent, f.opened, f.clicked])).toEqual([
      [5, 5, 0],
      [5, 2, 2],
      [5, 0, 0],
    ]);
    const counts = await newsletterSendStatus(database.db, sendId);
    expect(counts).toMatchObject({ sent: READERS, held: 0, clicked: 2, opened: 7 });
  });

  it('lets opens decide when the editor chose so, and the first subject win a tie', async () => {
    mail = [];
    await database.db.delete(newsletterSends);
    const { sendId } = await queueNewsletter(database.db, {
      contentId: 'chair',
      segment: 'all',
      requestedBy: null,
      now: T0,
      test: { subjects: SUBJECTS.slice(0, 2), samplePercent: 20, waitHours: 1, metric: 'opens' },
    });
    const sample = (await letters(sendId)).filter((r) => r.variant !== null);
    expect(sample).toHaveLength(10);
    await round('a', hours(0));
    await decideSubjectTests(database.db, hours(1));
    const [send] = await database.db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, sendId));
    expect(send!.winner).toBe(0);
    await round('a', hours(1));
    expect(new Set(mail.map((m) => m.to)).size).toBe(READERS);
    expect(mail).toHaveLength(READERS);
  });

  it('cancels the held letters with the send: the winner step then sends nobody', async () => {
    mail = [];
    await database.db.delete(newsletterSends);
    const { sendId } = await queueNewsletter(database.db, {
      contentId: 'chair',
      segment: 'all',
      requestedBy: null,
      now: T0,
      test: { subjects: SUBJECTS.slice(0, 2), samplePercent: 20, waitHours: 1, metric: 'clicks' },
    });
    await round('a', hours(0));
    expect(await cancelSend(database.db, sendId, hours(0.5))).toBe(true);
    await decideSubjectTests(database.db, hours(2));
    await round('a', hours(2));
    expect(mail).toHaveLength(10);
    const open = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM newsletter_letters
          WHERE send_id = ${sendId}::uuid AND status IN ('queued', 'held')`,
    );
    expect(Number(open[0]!.n)).toBe(0);
  });

  it('starts with the post’s publication when the send waits for it', async () => {
    await database.db.delete(newsletterSends);
    const posts = findEndpoint('posts')!;
    await createContent(database.db, posts, {
      id: 'later',
      body: { title: '予約' },
      status: 'draft',
    });
    await scheduleContent(database.db, posts, 'later', hours(48), { actor: 'system' });
    const { sendId } = await queueNewsletter(database.db, {
      contentId: 'later',
      segment: 'all',
      requestedBy: null,
      withPublication: true,
      now: T0,
      test: { subjects: SUBJECTS.slice(0, 2), samplePercent: 20, waitHours: 1, metric: 'clicks' },
    });
    expect(await letters(sendId)).toHaveLength(0);
    await queueSendsOnPublication(database.db, 'later', hours(48));
    const rows = await letters(sendId);
    expect(rows.filter((r) => r.variant !== null)).toHaveLength(10);
    expect(rows.filter((r) => r.status === 'held')).toHaveLength(40);
    const [send] = await database.db
      .select()
      .from(newsletterSends)
      .where(eq(newsletterSends.id, sendId));
    expect(send!.testEndsAt).toEqual(hours(49));
  });
});
