import { Link } from '@/components/layout/site-link';
import { FieldChange } from '@/components/admin/content/version-history';
import styles from '@/components/biz/biz-admin.module.css';
import { ReviewDecisionForms } from '@/components/forms/review-decision-forms';
import { SubmitButton } from '@/components/ui/button';
import type { FieldDiff } from '@/lib/content-diff';
import { formatDateJa, formatDateTime, formatNumber } from '@/lib/format';
import { LISTING_STATE_LABELS, type ListingState } from '@/lib/jobs';
import type { Flash } from '@/lib/http/flash';
import {
  LISTING_FIELD_LABELS,
  LISTING_FIELD_NAMES,
  type ListingFields,
} from '@/server/features/partners/jobs/listing-input';
import { FORM_KEY, flashFor } from '@/lib/http/form-flash';
import { BizListSection } from '@/components/biz/biz-section';
import { RowError } from './messages';

export type ListingView = {
  id: string;
  state: ListingState | 'closed';
  fields: ListingFields;
  /** In review after an earlier review: what changed since; null: a first submission. */
  changes: FieldDiff[] | null;
  reviewComment: string | null;
  revision: number;
  submittedAt: Date | null;
  updatedAt: Date;
  publishedAt: Date | null;
  liveUntil: string | null;
  live: boolean;
  views: number;
  applyClicks: number;
};

export const listingFormKeys = (id: string) => ({
  approve: `approve-${id}`,
  return: `return-${id}`,
  close: `close-${id}`,
});

/** A partner's listings as staff see them: each with its state; one in review with its decision. */
export function PartnerListings({
  listings,
  flash,
}: {
  listings: ListingView[];
  flash: Flash | null;
}) {
  return (
    <BizListSection
      id="listings"
      title="求人"
      items={listings}
      unit="件"
      empty="この企業が作成した求人はまだありません。"
    >
      <ul className={styles.cards}>
        {listings.map((listing) => (
          <li key={listing.id}>
            <ListingCard listing={listing} flash={flash} />
          </li>
        ))}
      </ul>
    </BizListSection>
  );
}

const STATE_BADGE: Partial<Record<ListingView['state'], 'badgeStrong' | 'badgeMuted'>> = {
  in_review: 'badgeStrong',
  closed: 'badgeMuted',
  draft: 'badgeMuted',
};

function ListingCard({ listing, flash }: { listing: ListingView; flash: Flash | null }) {
  const title = listing.fields.title || '（職種名なし）';
  const titleId = `listing-${listing.id}-title`;
  const badge = STATE_BADGE[listing.state];
  return (
    <article id={`listing-${listing.id}`} className={styles.card} aria-labelledby={titleId}>
      <div className={styles.cardHeader}>
        <h3 id={titleId} className={styles.cardTitle}>
          {title}
        </h3>
        <span className={`${styles.badge} ${badge ? styles[badge] : ''}`}>
          {LISTING_STATE_LABELS[listing.state]}
        </span>
      </div>
      <dl className={styles.meta}>
        <dt>提出日時</dt>
        <dd>{listing.submittedAt ? <Time at={listing.submittedAt} /> : '未提出'}</dd>
        <dt>最終更新</dt>
        <dd>
          <Time at={listing.updatedAt} />
        </dd>
        {listing.publishedAt ? (
          <>
            <dt>公開日</dt>
            <dd>{formatDateJa(listing.publishedAt)}</dd>
            <dt>募集締切</dt>
            <dd>{listing.liveUntil ? formatDateJa(listing.liveUntil) : '—'}</dd>
            <dt>閲覧数</dt>
            <dd>{formatNumber(listing.views)}</dd>
            <dt>応募クリック</dt>
            <dd>{formatNumber(listing.applyClicks)}</dd>
          </>
        ) : null}
      </dl>
      <ul className={styles.actionLinks}>
        <li>
          <Link href={`/jobs/preview/${listing.id}`} prefetch={false}>
            プレビュー<span className="visually-hidden">：{title}</span>
          </Link>
        </li>
        {listing.live ? (
          <li>
            <Link href={`/jobs/${listing.id}`} prefetch={false}>
              公開中のページ<span className="visually-hidden">：{title}</span>
            </Link>
          </li>
        ) : null}
      </ul>
      {listing.state === 'returned' && listing.reviewComment ? (
        <div className={styles.message}>
          <p className={styles.subTitle}>差し戻しの理由</p>
          <p className={styles.text}>{listing.reviewComment}</p>
        </div>
      ) : null}
      {listing.state === 'in_review' ? <ReviewPanel listing={listing} flash={flash} /> : null}
      {listing.live ? <ClosePanel listing={listing} title={title} flash={flash} /> : null}
    </article>
  );
}

function Time({ at }: { at: Date }) {
  return <time dateTime={at.toISOString()}>{formatDateTime(at)}</time>;
}

/**
 * The listing as submitted and the two decisions. A listing staff reviewed before shows what
 * changed since first (marked as in the version history), the whole listing folded below.
 */
function ReviewPanel({ listing, flash }: { listing: ListingView; flash: Flash | null }) {
  const keys = listingFormKeys(listing.id);
  const action = `/api/biz/axis-admin/listings/${listing.id}/review`;
  const hidden = (key: string, decision: string) => (
    <>
      <input type="hidden" name={FORM_KEY} value={key} />
      <input type="hidden" name="decision" value={decision} />
      <input type="hidden" name="revision" value={listing.revision} />
    </>
  );
  return (
    <div className={styles.review}>
      {listing.changes ? (
        <>
          <h4 className={styles.subTitle}>前回の審査からの変更</h4>
          {listing.changes.length === 0 ? (
            <p className={styles.lead}>前回の審査から変更はありません。</p>
          ) : (
            listing.changes.map((diff) => <FieldChange key={diff.id} diff={diff} />)
          )}
          <details className={styles.details}>
            <summary>審査する内容（全文）</summary>
            <ListingFieldList fields={listing.fields} />
          </details>
        </>
      ) : (
        <>
          <h4 className={styles.subTitle}>審査する内容</h4>
          <ListingFieldList fields={listing.fields} />
        </>
      )}
      <ReviewDecisionForms
        action={action}
        keys={keys}
        hidden={hidden}
        flash={flash}
        approveLead="承認すると、すぐに求人一覧に公開されます。"
        commentHint="パートナーの画面にそのまま表示されます。直してほしい点を具体的に書いてください（2,000文字以内）"
      />
    </div>
  );
}

function ListingFieldList({ fields }: { fields: ListingFields }) {
  return (
    <dl className={`${styles.meta} ${styles.metaStacked}`}>
      {LISTING_FIELD_NAMES.map((name) => (
        <FieldRow key={name} name={name} fields={fields} />
      ))}
    </dl>
  );
}

function FieldRow({ name, fields }: { name: keyof ListingFields; fields: ListingFields }) {
  const value = fields[name];
  let text: string;
  if (value === null || value === '') text = '—';
  else if (typeof value === 'number') text = `${formatNumber(value)}円`;
  else if (name === 'closingDate') text = formatDateJa(value);
  else text = value;
  return (
    <>
      <dt>{LISTING_FIELD_LABELS[name]}</dt>
      <dd className={name === 'details' ? styles.prose : undefined}>{text}</dd>
    </>
  );
}

/** 募集を終了する, behind a step that says what it does (works without JavaScript). */
function ClosePanel({
  listing,
  title,
  flash,
}: {
  listing: ListingView;
  title: string;
  flash: Flash | null;
}) {
  const key = listingFormKeys(listing.id).close;
  const failed = flashFor(flash, key);
  return (
    <details className={styles.details} open={failed ? true : undefined}>
      <summary>募集を終了する</summary>
      <div className={styles.confirm}>
        <p>
          「{title}
          」の募集をすぐに終了します。求人一覧・検索・サイトマップから外れ、元に戻すことはできません。
        </p>
        <form
          method="post"
          action={`/api/biz/axis-admin/listings/${listing.id}/close`}
          className={styles.inlineForm}
        >
          <input type="hidden" name={FORM_KEY} value={key} />
          <input type="hidden" name="revision" value={listing.revision} />
          <SubmitButton>募集の終了を確定する</SubmitButton>
        </form>
        <RowError message={failed?.message} />
      </div>
    </details>
  );
}
