import 'server-only';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, queryRows } from '@/server/platform/db/client';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { SUBJECT_TEST, TEST_METRICS, type TestMetric } from '@/lib/newsletter/console';

/**
 * Subject line tests (docs/decisions/063-newsletter-analytics.md), as beehiiv runs them: 2–3
 * subjects go, split evenly, to a random sample of the send's readers; when the wait is over the
 * subject with more clicks (opens breaking a tie, or opens first when the editor chose so) goes
 * to the rest.
 *
 * Exactly once is the queue's own guarantee, untouched: the send still fans out into one letter
 * row per reader (UNIQUE(send_id, user_id)) at queue time. The sample's rows carry a variant and
 * go at once; the others wait `held`, which no sender claims. Choosing the winner writes it on
 * the send only while none is chosen (`WHERE winner IS NULL`: a second or concurrent run finds
 * it set and does nothing) and turns the held rows `queued`; no row is ever added, so no reader
 * can get a second letter of the send however often the step runs.
 */

const DEFAULT_SAMPLE_PERCENT = SUBJECT_TEST.defaultSamplePercent;
const DEFAULT_WAIT_HOURS = SUBJECT_TEST.defaultWaitHours;

export const subjectTestSchema = z.object({
  subjects: z
    .array(z.string().trim().min(1).max(SUBJECT_TEST.subjectMaxChars))
    .min(2)
    .max(SUBJECT_TEST.maxSubjects)
    .refine((s) => new Set(s).size === s.length, '件名が重複しています。'),
  samplePercent: z
    .number()
    .int()
    .min(SUBJECT_TEST.minSamplePercent)
    .max(SUBJECT_TEST.maxSamplePercent),
  waitHours: z.number().int().min(1).max(24),
  metric: z.enum(TEST_METRICS),
});
export type SubjectTest = z.infer<typeof subjectTestSchema>;

/**
 * The send's letters were just written: a sample of them gets the subjects in turn, the others
 * wait. The sample is at least one reader per subject, and everyone when the list is that short.
 */
export async function startSubjectTest(db: Db, sendId: string, now: Date): Promise<void> {
  const [send] = await queryRows<{ k: number | null; pct: number | null; wait: number | null }>(
    db,
    sql`SELECT cardinality(subjects) AS k, test_sample_percent AS pct, test_wait_minutes AS wait
        FROM newsletter_sends WHERE id = ${sendId}::uuid`,
  );
  const k = Number(send?.k ?? 0);
  if (k < 2) return;
  const pct = Number(send!.pct ?? DEFAULT_SAMPLE_PERCENT);
  await db.execute(
    sql`WITH ranked AS (
          SELECT id, row_number() OVER (ORDER BY random()) AS rn, count(*) OVER () AS total
          FROM newsletter_letters WHERE send_id = ${sendId}::uuid AND status = 'queued'),
        sized AS (
          SELECT id, rn, greatest(${k}, ceil(total * ${pct} / 100.0)) AS sample FROM ranked)
        UPDATE newsletter_letters l
        SET variant = CASE WHEN s.rn <= s.sample THEN ((s.rn - 1) % ${k})::int END,
            status = CASE WHEN s.rn <= s.sample THEN 'queued' ELSE 'held' END
        FROM sized s WHERE l.id = s.id`,
  );
  const ends = new Date(now.getTime() + Number(send!.wait ?? DEFAULT_WAIT_HOURS * 60) * 60_000);
  await db.execute(
    sql`UPDATE newsletter_sends SET test_ends_at = ${ends.toISOString()}::timestamptz
        WHERE id = ${sendId}::uuid`,
  );
}

/**
 * Every test whose wait is over: the winner is written once and the held letters released.
 * Run by each sender before its round; safe to run any number of times, at once or not.
 */
export async function decideSubjectTests(db: Db, now: Date): Promise<number> {
  const due = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM newsletter_sends
        WHERE winner IS NULL AND test_ends_at <= ${now.toISOString()}::timestamptz
          AND status IN ('queued', 'sending', 'done')`,
  );
  let decided = 0;
  for (const { id } of due) {
    const chosen = await db.transaction(async (tx) => {
      const [row] = await queryRows<{ winner: number }>(
        tx,
        sql`UPDATE newsletter_sends s
            SET winner = (
              SELECT v FROM generate_series(0, cardinality(s.subjects) - 1) AS v
              ORDER BY
                CASE WHEN s.test_metric = 'opens' THEN 0 ELSE
                  (SELECT count(l.clicked_at) FROM newsletter_letters l
                   WHERE l.send_id = s.id AND l.variant = v) END DESC,
                (SELECT count(l.opened_at) FROM newsletter_letters l
                 WHERE l.send_id = s.id AND l.variant = v) DESC,
                (SELECT count(l.clicked_at) FROM newsletter_letters l
                 WHERE l.send_id = s.id AND l.variant = v) DESC,
                v
              LIMIT 1)
            WHERE s.id = ${id}::uuid AND s.winner IS NULL
            RETURNING s.winner`,
      );
      if (!row) return null; // another sender chose it meanwhile
      await tx.execute(
        sql`UPDATE newsletter_letters SET status = 'queued', next_attempt_at = ${now.toISOString()}::timestamptz
            WHERE send_id = ${id}::uuid AND status = 'held'`,
      );
      await tx.execute(
        sql`UPDATE newsletter_sends SET status = 'sending', finished_at = NULL
            WHERE id = ${id}::uuid AND status = 'done'
              AND EXISTS (SELECT 1 FROM newsletter_letters
                          WHERE send_id = ${id}::uuid AND status = 'queued')`,
      );
      await recordAudit(tx, {
        actor: 'system',
        action: 'newsletter-subject-chosen',
        target: `newsletter:${id}`,
        detail: { winner: Number(row.winner) },
      });
      return Number(row.winner);
    });
    if (chosen !== null) decided++;
  }
  return decided;
}

export type SubjectFigures = {
  index: number;
  subject: string;
  sent: number;
  opened: number;
  clicked: number;
};

/** A send's subject test as its page shows it; null when it has none. */
export type SubjectTestView = {
  figures: SubjectFigures[];
  metric: TestMetric;
  samplePercent: number;
  waitHours: number;
  /** When the winner is chosen (ISO); null while the send waits for its post's publication. */
  endsAt: string | null;
  winner: number | null;
};

export async function subjectTestOf(db: Db, sendId: string): Promise<SubjectTestView | null> {
  const [send] = await queryRows<{
    subjects: string[] | null;
    metric: string | null;
    pct: number | null;
    wait: number | null;
    endsAt: string | Date | null;
    winner: number | null;
  }>(
    db,
    sql`SELECT subjects, test_metric AS metric, test_sample_percent AS pct,
               test_wait_minutes AS wait, test_ends_at AS "endsAt", winner
        FROM newsletter_sends WHERE id = ${sendId}::uuid`,
  );
  if (!send?.subjects || send.subjects.length < 2) return null;
  return {
    figures: await subjectFigures(db, sendId, send.subjects),
    metric: send.metric === 'opens' ? 'opens' : 'clicks',
    samplePercent: Number(send.pct ?? DEFAULT_SAMPLE_PERCENT),
    waitHours: Math.round(Number(send.wait ?? DEFAULT_WAIT_HOURS * 60) / 60),
    endsAt: send.endsAt ? new Date(send.endsAt).toISOString() : null,
    winner: send.winner === null ? null : Number(send.winner),
  };
}

/** Each subject's letters in the sample, with their opens and clicks (the send's page). */
export async function subjectFigures(
  db: Db,
  sendId: string,
  known?: readonly string[],
): Promise<SubjectFigures[]> {
  const subjects =
    known ??
    (
      await queryRows<{ subjects: string[] | null }>(
        db,
        sql`SELECT subjects FROM newsletter_sends WHERE id = ${sendId}::uuid`,
      )
    )[0]?.subjects ??
    [];
  if (subjects.length < 2) return [];
  const rows = await queryRows<{ v: number; sent: number; opened: number; clicked: number }>(
    db,
    sql`SELECT variant AS v, count(*) FILTER (WHERE status IN ('sent', 'uncertain'))::int AS sent,
               count(opened_at)::int AS opened, count(clicked_at)::int AS clicked
        FROM newsletter_letters WHERE send_id = ${sendId}::uuid AND variant IS NOT NULL
        GROUP BY variant`,
  );
  return subjects.map((subject, index) => {
    const row = rows.find((r) => Number(r.v) === index);
    return {
      index,
      subject,
      sent: Number(row?.sent ?? 0),
      opened: Number(row?.opened ?? 0),
      clicked: Number(row?.clicked ?? 0),
    };
  });
}
