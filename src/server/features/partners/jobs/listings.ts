import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gte, ne, or } from 'drizzle-orm';
import { type ListingState, todayInJapan } from '@/lib/jobs';
import { requiredText, z } from '@/lib/zod';
import {
  SUBMISSION_REFUSAL_MESSAGES,
  submissionRefusal,
} from '@/server/features/partners/partner-access';
import { type Actor, recordActorAction } from '@/server/platform/audit/audit-log';
import { type ContentClient, contentWriter, siteContent } from '@/server/features/content';
import { type Db, getDb } from '@/server/platform/db/client';
import { jobListings } from '@/server/platform/db/schema';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { env } from '@/env';
import { mailQuietly, invalidInput } from '@/server/platform/forms/submit';
import { listingMails } from '@/server/platform/mail/templates';
import { contractOf } from '@/server/features/partners/contracts';
import { listMembers } from '@/server/features/partners/members';
import { getPartner } from '@/server/features/partners/partners';
import {
  EMPTY_LISTING,
  type ListingFields,
  listingFieldsSchema,
  missingForReview,
  toJobContent,
} from './listing-input';

/**
 * A partner's job listings and their review (docs/decisions/010-partners-and-job-listings.md). A
 * member of the partner writes a listing (a draft, as often as they like), submits it for review,
 * staff approve it (its working copy is written to the content service's `jobs` item of the same
 * id, published) or return it with a comment; a returned listing is fixed and submitted again.
 * Editing a published listing makes a new draft while the approved version stays on /jobs.
 *
 * These functions hold the workflow's rules; who may call them is the caller's question,
 * answered by src/server/features/partners/partner-access.ts (the partner id passed in is the one the
 * actor may act for, and a listing of another partner is answered 404 here too).
 */

export type ListingDeps = {
  db: Db;
  writer: () => ContentClient;
  now: () => Date;
  /** Where a submission is announced (CONTACT_TO) and how the mail names the partner; unset: no mail. */
  notify?: { staffTo?: string; partnerName: (partnerId: string) => Promise<string> };
};

export async function listingDeps(): Promise<ListingDeps> {
  const db = await getDb();
  return {
    db,
    writer: contentWriter,
    now: () => new Date(),
    notify: {
      staffTo: env().CONTACT_TO,
      partnerName: async (id) =>
        (await getPartner({ db, content: siteContent(), writer: contentWriter }, id))?.name ?? id,
    },
  };
}

export type Listing = {
  id: string;
  partnerId: string;
  state: ListingState;
  fields: ListingFields;
  /** The fields as staff last approved or returned them; null: never reviewed. */
  reviewedFields: ListingFields | null;
  reviewComment: string | null;
  publishedAt: Date | null;
  /** The closing day of the version on /jobs; null: none is. */
  liveUntil: string | null;
  revision: number;
  submittedAt: Date | null;
  reviewedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const columns = {
  id: jobListings.id,
  partnerId: jobListings.partnerId,
  state: jobListings.state,
  fields: jobListings.fields,
  reviewedFields: jobListings.reviewedFields,
  reviewComment: jobListings.reviewComment,
  publishedAt: jobListings.publishedAt,
  liveUntil: jobListings.liveUntil,
  revision: jobListings.revision,
  submittedAt: jobListings.submittedAt,
  reviewedAt: jobListings.reviewedAt,
  createdAt: jobListings.createdAt,
  updatedAt: jobListings.updatedAt,
};

type Row = Omit<Listing, 'fields' | 'reviewedFields'> & {
  fields: Record<string, unknown>;
  reviewedFields: Record<string, unknown> | null;
};

// Stored fields were valid when written; a field added later reads as empty.
const asListing = (row: Row): Listing => ({
  ...row,
  fields: { ...EMPTY_LISTING, ...(row.fields as Partial<ListingFields>) },
  reviewedFields: row.reviewedFields
    ? { ...EMPTY_LISTING, ...(row.reviewedFields as Partial<ListingFields>) }
    : null,
});

export const LISTING_ID = /^job-[a-z0-9]{12}$/;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `job-` and 12 random letters or digits: a content id no demo or editor's id collides with. */
function newListingId(): string {
  // 252 is the largest multiple of 36 under 256: no character is likelier than another.
  const out: string[] = [];
  while (out.length < 12) {
    for (const byte of randomBytes(16)) {
      if (byte < 252 && out.length < 12) out.push(ID_ALPHABET[byte % 36]!);
    }
  }
  return `job-${out.join('')}`;
}

export async function getListing(db: Db, id: string): Promise<Listing | null> {
  if (!LISTING_ID.test(id)) return null;
  const [row] = await db.select(columns).from(jobListings).where(eq(jobListings.id, id));
  return row ? asListing(row) : null;
}

/** A partner's listings, most recently changed first. */
export async function listPartnerListings(db: Db, partnerId: string): Promise<Listing[]> {
  const rows = await db
    .select(columns)
    .from(jobListings)
    .where(eq(jobListings.partnerId, partnerId))
    .orderBy(desc(jobListings.updatedAt));
  return rows.map(asListing);
}

/** Listings waiting for review, oldest submission first (staff). */
export async function listReviewQueue(db: Db): Promise<Listing[]> {
  const rows = await db
    .select(columns)
    .from(jobListings)
    .where(eq(jobListings.state, 'in_review'))
    .orderBy(asc(jobListings.submittedAt));
  return rows.map(asListing);
}

/** Whether the approved version is on /jobs today (published and not past its closing day). */
export function isLive(listing: Pick<Listing, 'liveUntil'>, now: Date = new Date()): boolean {
  return listing.liveUntil !== null && listing.liveUntil >= todayInJapan(now);
}

/** What a partner's list shows: its state, or 募集終了 once the approved version has closed. */
export function displayState(listing: Listing, now: Date = new Date()): ListingState | 'closed' {
  if (listing.state === 'published' && !isLive(listing, now)) return 'closed';
  return listing.state;
}

/** Listings that use the partner's quota: in review, or on /jobs today. */
async function openListingCount(db: Db, partnerId: string, except: string, now: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(jobListings)
    .where(
      and(
        eq(jobListings.partnerId, partnerId),
        ne(jobListings.id, except),
        or(eq(jobListings.state, 'in_review'), gte(jobListings.liveUntil, todayInJapan(now))),
      ),
    );
  return row?.n ?? 0;
}

/** Audits what a partner member or staff did to a listing, and for which partner. */
const auditListing = (
  db: Db,
  actor: Actor,
  action: string,
  listingId: string,
  partnerId: string,
): Promise<void> =>
  recordActorAction(db, actor, { action, target: `job:${listingId}`, detail: { partnerId } });

const NOT_FOUND: FormResult = { ok: false, status: 404, message: '求人が見つかりません。' };
const STALE: FormResult = {
  ok: false,
  status: 409,
  message:
    'この求人は別の画面で更新されています。ページを再読み込みして、最新の内容から編集してください。',
};

const revisionOf = (input: Record<string, unknown>) => {
  const n = Number(input.revision);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export const LISTING_INTENTS = ['save', 'submit'] as const;
export type ListingIntent = (typeof LISTING_INTENTS)[number];

/**
 * Saves a partner's listing: a new one when `id` is null. `submit` also sends it for review
 * when it is complete and the partner's contract and quota allow; otherwise nothing is
 * written. The form's `revision` must be the stored one (no silent overwrite).
 */
export async function saveListing(
  deps: ListingDeps,
  partnerId: string,
  id: string | null,
  input: Record<string, unknown>,
  intent: ListingIntent,
  actor: Actor,
): Promise<FormResult> {
  const now = deps.now();
  const current = id === null ? null : await getListing(deps.db, id);
  if (id !== null && (!current || current.partnerId !== partnerId)) return NOT_FOUND;
  if (current && revisionOf(input) !== current.revision) return STALE;

  const parsed = listingFieldsSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  const fields = parsed.data;
  const listingId = current?.id ?? newListingId();

  if (intent === 'submit') {
    const missing = missingForReview(fields, now);
    if (Object.keys(missing).length > 0)
      return {
        ok: false,
        status: 400,
        message: '審査に提出するには、次の項目を入力してください。',
        fieldErrors: missing,
      };
    const refusal = submissionRefusal(
      await contractOf(deps.db, partnerId),
      await openListingCount(deps.db, partnerId, listingId, now),
      now,
    );
    if (refusal) return { ok: false, status: 403, message: SUBMISSION_REFUSAL_MESSAGES[refusal] };
  }

  const state: ListingState = intent === 'submit' ? 'in_review' : 'draft';
  const change = {
    state,
    fields,
    updatedBy: actor.userId,
    updatedAt: now,
    ...(intent === 'submit' ? { submittedAt: now, reviewComment: null } : {}),
  };
  if (current) {
    const updated = await deps.db
      .update(jobListings)
      .set({ ...change, revision: current.revision + 1 })
      .where(and(eq(jobListings.id, current.id), eq(jobListings.revision, current.revision)))
      .returning({ id: jobListings.id });
    if (updated.length === 0) return STALE;
  } else {
    await deps.db
      .insert(jobListings)
      .values({ id: listingId, partnerId, createdBy: actor.userId, createdAt: now, ...change });
  }
  if (intent === 'submit') {
    await auditListing(deps.db, actor, 'job-listing-submitted', listingId, partnerId);
    const staffTo = deps.notify?.staffTo;
    if (deps.notify && staffTo) {
      const partnerName = await deps.notify.partnerName(partnerId);
      await mailQuietly(deps.db, 'listings', () =>
        listingMails.submitted(staffTo, {
          partnerId,
          partnerName,
          listingId,
          title: fields.title,
        }),
      );
    }
  }
  return {
    ok: true,
    redirectTo: `/jobs/post?listing=${listingId}`,
    message:
      intent === 'submit'
        ? '審査に提出しました。審査が終わるまで、しばらくお待ちください。'
        : '下書きを保存しました。',
  };
}

export const reviewInput = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve'), revision: z.coerce.number().int().positive() }),
  z.object({
    decision: z.literal('return'),
    revision: z.coerce.number().int().positive(),
    comment: requiredText('差し戻しの理由', 2000),
  }),
]);

/**
 * Staff's decision on a listing in review. Approving writes it to the content service,
 * published (created the first time, replaced after), so it is on /jobs at once; returning
 * keeps the comment for the partner.
 */
export async function reviewListing(
  deps: ListingDeps,
  id: string,
  input: Record<string, unknown>,
  actor: Actor,
): Promise<FormResult> {
  const parsed = reviewInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  const current = await getListing(deps.db, id);
  if (!current) return NOT_FOUND;
  if (current.state !== 'in_review')
    return { ok: false, status: 409, message: 'この求人は審査中ではありません。' };
  if (parsed.data.revision !== current.revision) return STALE;
  const now = deps.now();
  const decision = parsed.data;

  if (decision.decision === 'approve') {
    const content = toJobContent(current.fields, current.partnerId);
    if (current.publishedAt === null)
      await deps.writer().create({ endpoint: 'jobs', contentId: current.id, content });
    else await deps.writer().update({ endpoint: 'jobs', contentId: current.id, content });
  }
  const updated = await deps.db
    .update(jobListings)
    .set({
      ...(decision.decision === 'approve'
        ? {
            state: 'published' as const,
            publishedAt: current.publishedAt ?? now,
            liveUntil: current.fields.closingDate || null,
            reviewComment: null,
          }
        : { state: 'returned' as const, reviewComment: decision.comment }),
      // What staff saw: a resubmission is shown to them against it.
      reviewedFields: current.fields,
      reviewedAt: now,
      reviewedBy: actor.userId,
      revision: current.revision + 1,
    })
    .where(and(eq(jobListings.id, id), eq(jobListings.revision, current.revision)))
    .returning({ id: jobListings.id });
  if (updated.length === 0) return STALE;
  await auditListing(
    deps.db,
    actor,
    decision.decision === 'approve' ? 'job-listing-approved' : 'job-listing-returned',
    id,
    current.partnerId,
  );
  // The partner hears of it by mail too, not only when they next open their dashboard.
  for (const member of await listMembers(deps.db, current.partnerId))
    await mailQuietly(deps.db, 'listings', () =>
      listingMails.reviewed(member.email, {
        listingId: id,
        title: current.fields.title,
        decision: decision.decision,
        comment: decision.decision === 'return' ? decision.comment : null,
      }),
    );
  return {
    ok: true,
    message:
      decision.decision === 'approve'
        ? `「${current.fields.title}」を承認し、公開しました。`
        : `「${current.fields.title}」を差し戻しました。`,
  };
}

/**
 * Ends a published listing before its closing day: the closing day becomes yesterday in
 * Japan, in the working copy and on /jobs, so it leaves the list, the sitemap and search.
 */
export async function closeListing(
  deps: ListingDeps,
  partnerId: string,
  id: string,
  input: Record<string, unknown>,
  actor: Actor,
): Promise<FormResult> {
  const current = await getListing(deps.db, id);
  if (!current || current.partnerId !== partnerId) return NOT_FOUND;
  if (revisionOf(input) !== current.revision) return STALE;
  const now = deps.now();
  if (!isLive(current, now))
    return { ok: false, status: 409, message: 'この求人は公開中ではありません。' };
  const yesterday = todayInJapan(new Date(now.getTime() - 86_400_000));
  await deps.writer().update({
    endpoint: 'jobs',
    contentId: id,
    content: { closingDate: `${yesterday}T23:59:59+09:00` },
  });
  await deps.db
    .update(jobListings)
    .set({
      liveUntil: yesterday,
      fields: { ...current.fields, closingDate: yesterday },
      revision: current.revision + 1,
      updatedAt: now,
      updatedBy: actor.userId,
    })
    .where(eq(jobListings.id, id));
  await auditListing(deps.db, actor, 'job-listing-closed', id, partnerId);
  return { ok: true, message: `「${current.fields.title}」の募集を終了しました。` };
}
