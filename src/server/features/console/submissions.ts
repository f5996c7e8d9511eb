import 'server-only';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { EndpointDef } from '@/lib/cms/model';
import type { ItemOwnership, SubmissionState } from '@/lib/access/console-permissions';
import { requiredText, z } from '@/lib/zod';
import { type Actor, recordActorAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { cmsContents, cmsSubmissions } from '@/server/platform/db/schema';
import { runWorkflow } from './actions';
import { findItem } from './items';
import { submissionState } from './submission-state';

/**
 * Contributors' items and their review (docs/decisions/031-contributor-role.md), the way
 * partners' job listings are reviewed (src/server/features/partners/jobs/listings.ts): a contributor writes a
 * draft and submits it; an editor approves it (it is published at once) or returns it with
 * a comment the contributor reads above their editor. Saving an item in review withdraws it.
 */

export type Submission = typeof cmsSubmissions.$inferSelect;

const byItem = (endpoint: string, id: string) =>
  and(eq(cmsSubmissions.endpoint, endpoint), eq(cmsSubmissions.contentId, id));

export async function findSubmission(
  db: Db,
  endpoint: string,
  id: string,
): Promise<Submission | null> {
  const [row] = await db
    .select({
      ...getTableColumns(cmsSubmissions),
      state: submissionState(sql`${cmsContents.publishedAt}`, sql`${cmsSubmissions.state}`),
    })
    .from(cmsSubmissions)
    .innerJoin(
      cmsContents,
      and(
        eq(cmsContents.endpoint, cmsSubmissions.endpoint),
        eq(cmsContents.id, cmsSubmissions.contentId),
      ),
    )
    .where(byItem(endpoint, id));
  return row ?? null;
}

/** Whose the item is, for the allow-list's ownership rules (null: staff's own item). */
export async function ownershipOf(db: Db, endpoint: string, id: string): Promise<ItemOwnership> {
  const row = id ? await findSubmission(db, endpoint, id) : null;
  return row ? { authorId: row.authorId, state: row.state } : null;
}

/** The item a contributor just created is theirs. */
export async function recordAuthor(
  db: Db,
  endpoint: string,
  id: string,
  authorId: string,
): Promise<void> {
  await db
    .insert(cmsSubmissions)
    .values({ endpoint, contentId: id, authorId, state: 'draft' })
    .onConflictDoNothing();
}

/** A contributor's save of an item in review takes it out of review (as a listing's does). */
export async function withdrawOnSave(db: Db, endpoint: string, id: string): Promise<void> {
  await db
    .update(cmsSubmissions)
    .set({ state: 'draft', submittedAt: null })
    .where(and(byItem(endpoint, id), eq(cmsSubmissions.state, 'in_review')));
}

/**
 * Staff published the item from the console (approval, the editor's 公開する): who closed its
 * review. Its state reads published however it was published (`submissionState`).
 */
export async function markPublished(
  db: Db,
  endpoint: string,
  id: string,
  reviewerId: string,
  now = new Date(),
): Promise<void> {
  await db
    .update(cmsSubmissions)
    .set({ state: 'published', reviewComment: null, reviewedAt: now, reviewedBy: reviewerId })
    .where(
      and(byItem(endpoint, id), inArray(cmsSubmissions.state, ['draft', 'in_review', 'returned'])),
    );
}

/** Items in review per endpoint, for the console's start page. */
export async function countInReview(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ endpoint: cmsSubmissions.endpoint, id: cmsSubmissions.contentId })
    .from(cmsSubmissions)
    .where(eq(cmsSubmissions.state, 'in_review'));
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.endpoint, (counts.get(row.endpoint) ?? 0) + 1);
  return counts;
}

const isoDateTime = z.iso.datetime({ offset: true });

export const REVIEW_DECISIONS = ['submit', 'approve', 'return'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const reviewSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('submit'), baseUpdatedAt: isoDateTime }),
  z.object({ decision: z.literal('approve'), baseUpdatedAt: isoDateTime }),
  z.object({
    decision: z.literal('return'),
    baseUpdatedAt: isoDateTime,
    comment: requiredText('差し戻しの理由', 2000),
  }),
]);
export type ReviewInput = z.infer<typeof reviewSchema>;

export type ReviewResult = { ok: true; message: string } | { ok: false; message: string };

const REFUSED = {
  gone: 'この項目は削除されたか、見つかりません。',
  stale: 'この項目はほかの人が更新しました。ページを読み込み直して、最新の内容を確認してください。',
  notInReview: 'この項目は審査待ちではありません。',
  notSubmittable: 'この項目は審査に提出できる状態ではありません。',
  empty: '保存された内容がないため、提出できません。先に保存してください。',
} as const;

/** The states a submission may be sent for review from. */
const SUBMITTABLE: readonly SubmissionState[] = ['draft', 'returned'];

/**
 * A decision on a submission, already authorised by the caller (console-http.ts asks the
 * allow-list: submit is the author's, approve and return an editor's). `baseUpdatedAt` is the
 * item the form showed: a newer item is refused, so nobody approves what they did not read.
 */
export async function decide(
  db: Db,
  def: EndpointDef,
  id: string,
  input: ReviewInput,
  actor: Actor,
  now = new Date(),
): Promise<ReviewResult> {
  const [item, submission] = await Promise.all([
    findItem(db, def, id),
    findSubmission(db, def.endpoint, id),
  ]);
  if (!item || !submission) return { ok: false, message: REFUSED.gone };
  if (item.updatedAt.toISOString() !== new Date(input.baseUpdatedAt).toISOString())
    return { ok: false, message: REFUSED.stale };
  const audit = (action: string, detail: Record<string, unknown> = {}) =>
    recordActorAction(db, actor, {
      action,
      target: `content:${def.endpoint}/${id}`,
      detail: { authorId: submission.authorId, ...detail },
    });

  if (input.decision === 'submit') {
    if (!SUBMITTABLE.includes(submission.state))
      return { ok: false, message: REFUSED.notSubmittable };
    if (!item.draftData && !item.data) return { ok: false, message: REFUSED.empty };
    await db
      .update(cmsSubmissions)
      .set({ state: 'in_review', submittedAt: now, reviewComment: null })
      .where(byItem(def.endpoint, id));
    await audit('content-submitted');
    return {
      ok: true,
      message: '審査に提出しました。編集者の確認が終わるまで、しばらくお待ちください。',
    };
  }

  if (submission.state !== 'in_review') return { ok: false, message: REFUSED.notInReview };
  if (input.decision === 'approve') {
    // The editor's own 公開する, with its checks and its words when it refuses.
    const published = await runWorkflow(
      db,
      def,
      id,
      { action: 'publish', baseUpdatedAt: item.updatedAt.toISOString() },
      `user:${actor.userId}`,
    );
    if (!published.body.ok)
      return {
        ok: false,
        message: published.status === 409 ? REFUSED.stale : published.body.message,
      };
    await markPublished(db, def.endpoint, id, actor.userId, now);
    await audit('content-approved');
    return { ok: true, message: '承認し、公開しました。' };
  }
  await db
    .update(cmsSubmissions)
    .set({
      state: 'returned',
      reviewComment: input.comment,
      reviewedAt: now,
      reviewedBy: actor.userId,
    })
    .where(byItem(def.endpoint, id));
  await audit('content-returned', { comment: input.comment });
  return { ok: true, message: '差し戻しました。寄稿者の編集画面にコメントが表示されます。' };
}
