import 'server-only';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { notFound } from 'next/navigation';
import { env } from '@/env';
import {
  type Audience,
  type NewsletterStepProps,
  type Segment,
  type SendView,
  type StepPost,
  type SuppressionView,
  NEWSLETTER_ENDPOINT,
} from '@/lib/newsletter/console';
import { findEndpoint } from '@/lib/cms/model';
import { z } from '@/lib/zod';
import {
  actorLabels,
  findItem,
  itemState,
  lookupItems,
  titleFieldOf,
} from '@/server/features/console';
import { CONTENT_ID, usesBuiltInContent } from '@/server/features/content';
import type { Db } from '@/server/platform/db/client';
import { getDb } from '@/server/platform/db/client';
import {
  newsletterLetters,
  newsletterSends,
  newsletterSuppressions,
} from '@/server/platform/db/schema';
import { type AppUser, requireAdmin, requireStaff } from '@/server/features/identity';
import {
  type SendStatus,
  type SendSummary,
  listSends,
  newsletterSendStatus,
  segmentSchema,
  segmentCounts,
} from './queue';
import { renderPreviewLetter } from './preview';
import { type SubjectTestView, subjectTestOf } from './subject-test';
import { BOUNCE_ACTOR, REPORT_ACTOR, listSuppressions } from './suppressions';

/**
 * What the newsletter's staff pages read (src/app/admin/newsletter/**, the 「メールで配信」
 * step of a post): each loader starts with the staff gate, so none can be called without it.
 * Editors and admins may send (they publish, and a send is the post's publication by mail);
 * the suppression list is the admins' (src/server/features/newsletter/console-http.ts).
 */

export const postsDef = () => findEndpoint(NEWSLETTER_ENDPOINT)!;

/** A post of the console by id, as the step shows it; null when there is none. */
export async function stepPost(db: Db, contentId: string): Promise<StepPost | null> {
  if (!CONTENT_ID.test(contentId)) return null;
  const def = postsDef();
  const row = await findItem(db, def, contentId);
  if (!row) return null;
  const state = itemState(def, row);
  const titleField = titleFieldOf(def);
  const data = row.draftData ?? row.data ?? {};
  const title = titleField ? data[titleField] : '';
  return {
    id: row.id,
    title: typeof title === 'string' ? title : '',
    status: state.status,
    scheduledAt: state.scheduledAt,
    publicUrl: state.publicUrl,
  };
}

/** Sends as the console lists them: the post's title and who asked, by name. */
export async function sendViews(db: Db, sends: readonly SendSummary[]): Promise<SendView[]> {
  if (sends.length === 0) return [];
  const [titles, labels] = await Promise.all([
    lookupItems(db, postsDef(), { ids: [...new Set(sends.map((s) => s.contentId))] }),
    actorLabels(
      db,
      sends.map((s) => (s.requestedBy ? `user:${s.requestedBy}` : null)),
    ),
  ]);
  return sends.map((send) => ({
    id: send.id,
    contentId: send.contentId,
    title: titles.find((t) => t.id === send.contentId)?.label ?? '',
    segment: send.segment,
    status: send.status,
    createdAt: send.createdAt.toISOString(),
    by: send.requestedBy ? (labels.get(`user:${send.requestedBy}`) ?? null) : null,
    counts: send.counts,
  }));
}

/** The staff gate of the newsletter's pages: editors and admins, the 404 page for anyone else. */
export async function requireNewsletterStaff(): Promise<AppUser> {
  const user = await requireStaff();
  if (!usesBuiltInContent()) notFound();
  return user;
}

/** The 「メールで配信」 step of a post, with its preview for `audience`. */
export async function newsletterStepPage(
  contentId: string,
  audience: Audience,
): Promise<NewsletterStepProps> {
  const user = await requireNewsletterStaff();
  const db = await getDb();
  const post = await stepPost(db, contentId);
  if (!post) notFound();
  const [counts, sends, html] = await Promise.all([
    segmentCounts(db),
    listSends(db, { contentId }).then((rows) => sendViews(db, rows)),
    renderPreviewLetter(db, contentId, audience, user),
  ]);
  return {
    post,
    counts,
    sends,
    preview: { audience, html: html?.html ?? null },
    testTo: user.email,
    outbox: !env().SMTP_URL,
  };
}

/** The confirmation page: the post, how many the segment reaches, earlier sends of the post. */
export async function sendConfirmPage(contentId: string, segment: Segment) {
  await requireNewsletterStaff();
  const db = await getDb();
  const post = await stepPost(db, contentId);
  if (!post) notFound();
  const [counts, sends] = await Promise.all([
    segmentCounts(db),
    listSends(db, { contentId }).then((rows) => sendViews(db, rows)),
  ]);
  return { post, count: counts[segment], sends };
}

/** /admin/newsletter: the newest sends. */
export async function sendsPage(limit = 100): Promise<SendView[]> {
  await requireNewsletterStaff();
  const db = await getDb();
  return sendViews(db, await listSends(db, { limit }));
}

/** One send with its letters' counts, or null. */
export async function findSend(db: Db, sendId: string): Promise<SendSummary | null> {
  const [row] = await db.select().from(newsletterSends).where(eq(newsletterSends.id, sendId));
  if (!row) return null;
  return {
    ...row,
    segment: segmentSchema.parse(row.segment),
    status: row.status as SendStatus,
    counts: await newsletterSendStatus(db, sendId),
  };
}

/** A letter that did not go out (or may not have): whom, why, how often it was tried. */
export type ProblemLetter = { email: string; status: string; attempts: number; error: string };

/** /admin/newsletter/{id}: the send, and its letters that failed or whose fate is unknown. */
export async function sendDetailPage(sendId: string): Promise<{
  send: SendView;
  queuedAt: string | null;
  finishedAt: string | null;
  problems: ProblemLetter[];
  test: SubjectTestView | null;
}> {
  await requireNewsletterStaff();
  const db = await getDb();
  const found = z.uuid().safeParse(sendId).success ? await findSend(db, sendId) : null;
  if (!found) notFound();
  const [[send], problems, test] = await Promise.all([
    sendViews(db, [found]),
    db
      .select({
        email: newsletterLetters.email,
        status: newsletterLetters.status,
        attempts: newsletterLetters.attempts,
        error: newsletterLetters.error,
      })
      .from(newsletterLetters)
      .where(
        and(
          eq(newsletterLetters.sendId, sendId),
          inArray(newsletterLetters.status, ['failed', 'uncertain']),
        ),
      )
      .orderBy(desc(newsletterLetters.status), newsletterLetters.email)
      .limit(PROBLEM_LIMIT),
    subjectTestOf(db, sendId),
  ]);
  return {
    send: send!,
    queuedAt: found.queuedAt?.toISOString() ?? null,
    finishedAt: found.finishedAt?.toISOString() ?? null,
    problems: problems.map((p) => ({ ...p, error: p.error ?? '' })),
    test,
  };
}

/** The detail page lists this many problem letters at most (the counts say how many in all). */
export const PROBLEM_LIMIT = 200;

export const SUPPRESSIONS_PER_PAGE = 50;

/** How the list names who suppressed an address: staff by name, else the CLI or the system. */
async function suppressorLabels(db: Db, actors: readonly string[]): Promise<Map<string, string>> {
  const labels = await actorLabels(
    db,
    actors.filter((a) => a.startsWith('user:')),
  );
  for (const actor of actors)
    if (!labels.has(actor))
      labels.set(
        actor,
        actor.startsWith('cli:')
          ? 'コマンドライン'
          : actor === BOUNCE_ACTOR
            ? '配信時の自動登録'
            : actor === REPORT_ACTOR
              ? '返送メールからの自動登録'
              : 'システム',
      );
  return labels;
}

/** /admin/newsletter/suppressions (admins only): one page of the list, newest first. */
export async function suppressionsPage(
  page: number,
): Promise<{ items: SuppressionView[]; page: number; pageCount: number; total: number }> {
  await requireAdmin();
  const db = await getDb();
  const total = await db.$count(newsletterSuppressions);
  const pageCount = Math.max(1, Math.ceil(total / SUPPRESSIONS_PER_PAGE));
  const current = Math.min(page, pageCount);
  const rows = await listSuppressions(db, {
    limit: SUPPRESSIONS_PER_PAGE,
    offset: (current - 1) * SUPPRESSIONS_PER_PAGE,
  });
  const labels = await suppressorLabels(
    db,
    rows.map((r) => r.createdBy),
  );
  return {
    items: rows.map((row) => ({
      email: row.email,
      reason: row.reason,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
      by: labels.get(row.createdBy) ?? 'システム',
    })),
    page: current,
    pageCount,
    total,
  };
}
