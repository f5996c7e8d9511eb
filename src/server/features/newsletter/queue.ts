import 'server-only';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, queryRows } from '@/server/platform/db/client';
import { cmsContents, newsletterLetters, newsletterSends } from '@/server/platform/db/schema';
import { singleton } from '@/lib/singleton';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { onItemPublication } from '@/server/services/cms/item-hooks';
import { NEWSLETTER_ENDPOINT, letterCounts } from '@/lib/newsletter/console';
import { AppError } from '@/lib/errors';
import { type SubjectTest, startSubjectTest } from './subject-test';

/**
 * The newsletter queue (docs/decisions/026-newsletter-queue.md): a send of one post to one
 * segment fans out, in one INSERT … SELECT, into a letter row per reader who opted in, has a
 * verified address and is not suppressed. The senders (delivery.ts) work through those rows.
 */

export const SEGMENTS = ['all', 'free', 'paid'] as const;
export type Segment = (typeof SEGMENTS)[number];
export const segmentSchema = z.enum(SEGMENTS);

export type SendStatus = 'scheduled' | 'queued' | 'sending' | 'done' | 'cancelled';
/** `held`: a subject test's letter waiting for the winner (subject-test.ts). */
export type LetterStatus = 'queued' | 'held' | 'sending' | 'sent' | 'failed' | 'uncertain';

type NewsletterRefusal =
  'post-missing' | 'post-not-published' | 'post-not-scheduled' | 'send-missing';

/** A send that cannot be made as asked: the message says why, for the console and the CLI. */
export class NewsletterError extends AppError {
  constructor(
    message: string,
    readonly reason: NewsletterRefusal,
  ) {
    super(message, {
      status: reason.endsWith('-missing') ? 404 : 409,
      code: `newsletter-${reason}`,
    });
    this.name = 'NewsletterError';
  }
}

/**
 * A paying reader: an active or trialing plan, a complimentary or gift one only within its term (as
 * src/server/features/profiles/subscriptions.ts reads them). `u` is the "user" row.
 */
export const PAID_READER = sql`EXISTS (
  SELECT 1 FROM subscriptions s
  WHERE s.user_id = u.id AND s.status IN ('active', 'trialing')
    AND NOT (s.provider <> 'stripe' AND s.current_period_end IS NOT NULL
             AND s.current_period_end <= now()))`;

/** Who may receive a newsletter at all: opted in, verified, not suppressed. */
const RECIPIENTS = sql`"user" u
  JOIN user_private_profiles p ON p.user_id = u.id
  WHERE p.newsletter AND u.email_verified
    AND NOT EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = lower(u.email))`;

/** How many readers each segment reaches now (the console shows it before sending). */
export async function segmentCounts(db: Db): Promise<Record<Segment, number>> {
  const [row] = await queryRows<{ all: number; paid: number }>(
    db,
    sql`SELECT count(*)::int AS "all", count(*) FILTER (WHERE ${PAID_READER})::int AS paid
        FROM ${RECIPIENTS}`,
  );
  const all = Number(row?.all ?? 0);
  const paid = Number(row?.paid ?? 0);
  return { all, free: all - paid, paid };
}

export type QueueInput = {
  contentId: string;
  segment: Segment;
  /** The staff member's user id (null: the CLI). */
  requestedBy: string | null;
  /** Wait for the post's scheduled publication instead of queueing now. */
  withPublication?: boolean;
  /** A subject line test (subject-test.ts); none: the post's title for everyone. */
  test?: SubjectTest;
  /** For the audit record; default `user:<requestedBy>` (or `system`). */
  actor?: string;
  now?: Date;
};

export type QueueResult = { sendId: string; queued: number; status: SendStatus };

/** Writes the letter rows of a send; how many (a reader already in it is not added twice). */
async function fanOut(db: Db, sendId: string, segment: Segment, now: Date): Promise<number> {
  const filter =
    segment === 'paid'
      ? sql`AND ${PAID_READER}`
      : segment === 'free'
        ? sql`AND NOT ${PAID_READER}`
        : sql``;
  const rows = await queryRows<{ n: number }>(
    db,
    sql`WITH added AS (
          INSERT INTO newsletter_letters (send_id, user_id, email, audience, next_attempt_at)
          SELECT ${sendId}::uuid, u.id, lower(u.email),
                 CASE WHEN ${PAID_READER} THEN 'paid' ELSE 'free' END, ${now.toISOString()}::timestamptz
          FROM ${RECIPIENTS} ${filter}
          ON CONFLICT (send_id, user_id) DO NOTHING
          RETURNING 1)
        SELECT count(*)::int AS n FROM added`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Marks the send queued (or done at once when nobody is in it) after its fan-out. */
async function markQueued(db: Db, sendId: string, queued: number, now: Date): Promise<SendStatus> {
  const status: SendStatus = queued > 0 ? 'queued' : 'done';
  await db
    .update(newsletterSends)
    .set({ status, queuedAt: now, finishedAt: queued > 0 ? null : now })
    .where(eq(newsletterSends.id, sendId));
  return status;
}

/**
 * Queues a post for a segment, or (withPublication) records the send to be queued when the
 * post's scheduled publication happens. One transaction: the send and all its letters, or none.
 */
export async function queueNewsletter(db: Db, input: QueueInput): Promise<QueueResult> {
  const now = input.now ?? new Date();
  const segment = segmentSchema.parse(input.segment);
  return db.transaction(async (tx) => {
    const [post] = await tx
      .select({ status: cmsContents.status, scheduledAt: cmsContents.scheduledAt })
      .from(cmsContents)
      .where(
        and(eq(cmsContents.endpoint, NEWSLETTER_ENDPOINT), eq(cmsContents.id, input.contentId)),
      );
    if (!post) throw new NewsletterError('記事が見つかりません。', 'post-missing');
    const live = post.status === 'PUBLISH' || post.status === 'PUBLISH_AND_DRAFT';
    if (input.withPublication) {
      if (!post.scheduledAt)
        throw new NewsletterError(
          'この記事には公開予約がありません。公開日時を予約してから、公開と同時の配信を選んでください。',
          'post-not-scheduled',
        );
    } else if (!live) {
      throw new NewsletterError(
        '公開されていない記事は配信できません。公開してから配信してください。',
        'post-not-published',
      );
    }
    const [send] = await tx
      .insert(newsletterSends)
      .values({
        contentId: input.contentId,
        segment,
        status: input.withPublication ? 'scheduled' : 'queued',
        withPublication: input.withPublication ?? false,
        requestedBy: input.requestedBy,
        createdAt: now,
        ...(input.test && {
          subjects: input.test.subjects,
          testSamplePercent: input.test.samplePercent,
          testWaitMinutes: input.test.waitHours * 60,
          testMetric: input.test.metric,
        }),
      })
      .returning({ id: newsletterSends.id });
    const sendId = send!.id;
    const queued = input.withPublication ? 0 : await fanOut(tx, sendId, segment, now);
    if (!input.withPublication) await startSubjectTest(tx, sendId, now);
    const status = input.withPublication ? 'scheduled' : await markQueued(tx, sendId, queued, now);
    await recordAudit(tx, {
      actor: input.actor ?? (input.requestedBy ? `user:${input.requestedBy}` : 'system'),
      action: 'newsletter-queued',
      target: `newsletter:${sendId}`,
      detail: {
        contentId: input.contentId,
        segment,
        status,
        queued,
        ...(input.test && { subjects: input.test.subjects.length }),
      },
    });
    return { sendId, queued, status };
  });
}

/**
 * The post was published: its sends waiting for that are queued, inside the publishing
 * transaction, so the publication and the queueing happen together.
 */
export async function queueSendsOnPublication(
  db: Db,
  contentId: string,
  now = new Date(),
): Promise<number> {
  const waiting = await db
    .select({ id: newsletterSends.id, segment: newsletterSends.segment })
    .from(newsletterSends)
    .where(and(eq(newsletterSends.contentId, contentId), eq(newsletterSends.status, 'scheduled')))
    .for('update');
  let queued = 0;
  for (const send of waiting) {
    const n = await fanOut(db, send.id, segmentSchema.parse(send.segment), now);
    await startSubjectTest(db, send.id, now);
    await markQueued(db, send.id, n, now);
    queued += n;
  }
  return queued;
}

/**
 * The post's publication was called off (schedule cleared, post unpublished): its sends that
 * waited for it are cancelled, so a later publication does not mail them by surprise.
 */
export async function cancelSendsOnPublication(
  db: Db,
  contentId: string,
  now = new Date(),
): Promise<number> {
  const cancelled = await db
    .update(newsletterSends)
    .set({ status: 'cancelled', finishedAt: now })
    .where(and(eq(newsletterSends.contentId, contentId), eq(newsletterSends.status, 'scheduled')))
    .returning({ id: newsletterSends.id });
  return cancelled.length;
}

/**
 * Sends follow their post's publication: queued when it is published, cancelled when it is
 * called off, inside the store's transaction (src/server/services/cms/item-hooks.ts). Subscribed once
 * per process when the server starts (src/server/boot.ts).
 */
export function followPostPublications(): void {
  singleton('newsletter-follows-publications', () =>
    onItemPublication({
      published: (tx, item, at) =>
        item.endpoint === NEWSLETTER_ENDPOINT
          ? queueSendsOnPublication(tx, item.id, at)
          : Promise.resolve(),
      withdrawn: (tx, item, at) =>
        item.endpoint === NEWSLETTER_ENDPOINT
          ? cancelSendsOnPublication(tx, item.id, at)
          : Promise.resolve(),
    }),
  );
}

/**
 * Staff cancel a send: one waiting for publication, or the letters of a running one that no
 * sender has started (a letter already being handed to the mail server goes on).
 */
export async function cancelSend(db: Db, sendId: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [send] = await tx
      .update(newsletterSends)
      .set({ status: 'cancelled', finishedAt: now })
      .where(
        and(
          eq(newsletterSends.id, sendId),
          inArray(newsletterSends.status, ['scheduled', 'queued', 'sending']),
        ),
      )
      .returning({ id: newsletterSends.id });
    if (!send) return false;
    await tx
      .update(newsletterLetters)
      .set({ status: 'failed', error: 'cancelled', claimedBy: null, claimedUntil: null })
      .where(
        and(
          eq(newsletterLetters.sendId, sendId),
          inArray(newsletterLetters.status, ['queued', 'held']),
        ),
      );
    return true;
  });
}

export type SendCounts = Record<LetterStatus, number> & { opened: number; clicked: number };

/** Letters of a send by status, and how many were opened (the post visited from the letter). */
export async function newsletterSendStatus(db: Db, sendId: string): Promise<SendCounts> {
  return (await statusBySend(db, [sendId])).get(sendId) ?? letterCounts();
}

async function statusBySend(db: Db, sendIds: string[]): Promise<Map<string, SendCounts>> {
  const out = new Map<string, SendCounts>();
  if (sendIds.length === 0) return out;
  const rows = await db
    .select({
      sendId: newsletterLetters.sendId,
      status: newsletterLetters.status,
      n: sql<number>`count(*)::int`,
      opened: sql<number>`count(${newsletterLetters.openedAt})::int`,
      clicked: sql<number>`count(${newsletterLetters.clickedAt})::int`,
    })
    .from(newsletterLetters)
    .where(inArray(newsletterLetters.sendId, sendIds))
    .groupBy(newsletterLetters.sendId, newsletterLetters.status);
  for (const row of rows) {
    const counts = out.get(row.sendId) ?? letterCounts();
    if (row.status in counts) counts[row.status as LetterStatus] += Number(row.n);
    counts.opened += Number(row.opened);
    counts.clicked += Number(row.clicked);
    out.set(row.sendId, counts);
  }
  return out;
}

export type SendSummary = {
  id: string;
  contentId: string;
  segment: Segment;
  status: SendStatus;
  withPublication: boolean;
  requestedBy: string | null;
  createdAt: Date;
  queuedAt: Date | null;
  finishedAt: Date | null;
  counts: SendCounts;
};

/** The newest sends first, each with its letters' counts (the console's list). */
export async function listSends(
  db: Db,
  options: { contentId?: string; limit?: number } = {},
): Promise<SendSummary[]> {
  const rows = await db
    .select()
    .from(newsletterSends)
    .where(options.contentId ? eq(newsletterSends.contentId, options.contentId) : undefined)
    .orderBy(desc(newsletterSends.createdAt), desc(newsletterSends.id))
    .limit(options.limit ?? 100);
  const counts = await statusBySend(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    ...row,
    segment: segmentSchema.parse(row.segment),
    status: row.status as SendStatus,
    counts: counts.get(row.id) ?? letterCounts(),
  }));
}
