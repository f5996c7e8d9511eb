import '@/styles/base';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/jobs-post/jobs-post.module.css';
import { CloseListingForm } from '@/components/jobs-post/close-listing-form';
import { ListingForm, type ListingFormValues } from '@/components/jobs-post/listing-form';
import { ListingStatus } from '@/components/jobs-post/listing-status';
import { PartnerListings } from '@/components/jobs-post/partner-listings';
import { ProgrammeOffer, SignInToPost } from '@/components/jobs-post/posting-invitation';
import { todayInJapan } from '@/lib/jobs';
import {
  SUBMISSION_REFUSAL_MESSAGES,
  partnerOfWriter,
  submissionRefusal,
} from '@/server/features/partners/partner-access';
import { getDb } from '@/server/platform/db/client';
import type { Flash } from '@/lib/http/flash';
import { readFlash } from '@/server/platform/http/read-flash';
import {
  EMPTY_LISTING,
  LISTING_FIELD_NAMES,
  LISTING_LIMITS,
  type ListingFields,
} from '@/server/features/partners/jobs/listing-input';
import {
  type Listing,
  displayState,
  getListing,
  isLive,
  listPartnerListings,
} from '@/server/features/partners/jobs/listings';
import {
  CLIPPED_FIELDS,
  CONFIRM_CLOSE,
  DONE_MESSAGES,
  type DoneKey,
  editPath,
} from '@/server/features/partners/jobs/listings-http';
import { currentPartnerActor } from '@/server/features/partners/actor';
import { contractOf } from '@/server/features/partners/contracts';
import { getPartner, partnerDeps } from '@/server/features/partners/partners';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('求人の作成・編集', '/jobs/post');

function Frame({
  kicker,
  title,
  children,
}: {
  kicker?: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        {kicker ? <p className={styles.kicker}>{kicker}</p> : null}
        <h1 className={styles.title}>{title}</h1>
      </header>
      {children}
    </div>
  );
}

/**
 * The form's values: what the last post typed (it came back with an error), else the stored.
 * A long text that came back cut is not put in place of a stored one: saving the cut text
 * would lose the end of it unseen. A new listing has only the start to offer.
 */
function formValues(stored: Listing | null, flash: Flash | null) {
  const fields: ListingFields = stored?.fields ?? EMPTY_LISTING;
  const clipped = flash?.values[CLIPPED_FIELDS];
  const cut = typeof clipped === 'string' ? clipped.split(',') : [];
  const values = {} as ListingFormValues;
  const warnings: Record<string, string> = {};
  for (const name of LISTING_FIELD_NAMES) {
    const typed = flash?.values[name];
    const value = fields[name];
    const storedText = value === null ? '' : String(value);
    if (cut.includes(name)) {
      values[name] = stored ? storedText : typeof typed === 'string' ? typed : '';
      warnings[name] = stored
        ? '長い文章のため、送信した内容を戻せませんでした。保存済みの内容を表示しています。ブラウザの「戻る」で前の画面に戻ると、送信した文章が残っていることがあります。'
        : '長い文章のため、送信した内容の先頭だけを戻しました。ブラウザの「戻る」で前の画面に戻ると、続きが残っていることがあります。';
    } else values[name] = typeof typed === 'string' ? typed : storedText;
  }
  return { values, warnings };
}

/** Listings that use the partner's quota, the one being edited not counted (as on submit). */
const openElsewhere = (listings: readonly Listing[], currentId: string | null, now: Date) =>
  listings.filter((l) => l.id !== currentId && (l.state === 'in_review' || isLive(l, now))).length;

/**
 * /jobs/post: a partner's member writes a listing (a new one, or `?listing={id}` of their
 * partner; any other id is not found), saves drafts, previews and submits it for review.
 * Everyone else learns who the page is for. The form posts to /api/jobs/listings, which
 * checks every rule again.
 */
export default async function JobPostPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  if (Array.isArray(query.listing)) notFound();
  const listingId = query.listing ?? null;
  const { user, actor } = await currentPartnerActor();
  if (!user)
    return (
      <Frame title="求人を掲載する">
        <SignInToPost next={listingId ? editPath(listingId) : '/jobs/post'} />
      </Frame>
    );
  const partnerId = partnerOfWriter(actor);
  if (partnerId === null)
    return (
      <Frame title="求人を掲載する">
        <ProgrammeOffer staff={actor.kind === 'staff'} />
      </Frame>
    );

  const db = await getDb();
  const listing = listingId === null ? null : await getListing(db, listingId);
  if (listingId !== null && (!listing || listing.partnerId !== partnerId)) notFound();

  const now = new Date();
  const [listings, contract, flash, partner] = await Promise.all([
    listPartnerListings(db, partnerId),
    contractOf(db, partnerId),
    readFlash(),
    getPartner(await partnerDeps(), partnerId, now),
  ]);
  const refusal = submissionRefusal(
    contract,
    openElsewhere(listings, listing?.id ?? null, now),
    now,
  );
  const errors = flash?.fieldErrors ?? {};
  // A refused close speaks beside its own checkbox, not above the listing form.
  const closeError = errors[CONFIRM_CLOSE];
  const form = formValues(listing, flash);
  const done = typeof query.done === 'string' && query.done in DONE_MESSAGES ? query.done : null;
  const live = listing !== null && isLive(listing, now);
  const today = todayInJapan(now);

  return (
    <Frame
      kicker={partner ? `${partner.name}の求人` : undefined}
      title={listing ? '求人を編集' : '求人を作成'}
    >
      <div className={styles.layout}>
        <div className={styles.main}>
          <ListingStatus
            listing={
              listing && {
                id: listing.id,
                displayState: displayState(listing, now),
                updatedAt: listing.updatedAt,
                reviewComment: listing.reviewComment,
                live,
                liveUntil: listing.liveUntil,
              }
            }
            done={done ? DONE_MESSAGES[done as DoneKey] : null}
            refusal={refusal ? SUBMISSION_REFUSAL_MESSAGES[refusal] : null}
          />
          <ListingForm
            action={
              listing
                ? `/api/jobs/listings/${encodeURIComponent(listing.id)}`
                : '/api/jobs/listings'
            }
            values={form.values}
            revision={listing?.revision ?? null}
            message={closeError ? null : (flash?.message ?? null)}
            errors={errors}
            warnings={form.warnings}
            closingDateRange={{
              min: today,
              max: todayInJapan(new Date(now.getTime() + LISTING_LIMITS.closingDays * 86_400_000)),
            }}
          />
          {listing && live ? (
            <CloseListingForm
              action={`/api/jobs/listings/${encodeURIComponent(listing.id)}`}
              revision={listing.revision}
              error={closeError}
            />
          ) : null}
        </div>
        <PartnerListings
          partnerId={partnerId}
          currentId={listing?.id ?? null}
          listings={listings.map((l) => ({
            id: l.id,
            title: l.fields.title,
            state: displayState(l, now),
            updatedAt: l.updatedAt,
          }))}
        />
      </div>
    </Frame>
  );
}
