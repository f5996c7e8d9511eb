import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { formatDateJa } from '@/lib/format';
import { LISTING_STATE_LABELS, type ListingState } from '@/lib/jobs';
import styles from './jobs-post.module.css';

/**
 * Where the listing being edited stands, above its form: its state, what the last post did,
 * the editors' comment when it was returned, what editing does now (in review, live), and a
 * contract that will refuse a submission before the partner writes in vain.
 */

export type ListingStatusProps = {
  /** Null: a new listing. */
  listing: {
    id: string;
    displayState: ListingState | 'closed';
    updatedAt: Date;
    reviewComment: string | null;
    /** The approved version is on /jobs now. */
    live: boolean;
    liveUntil: string | null;
  } | null;
  /** What the last plain post did (?done=). */
  done: string | null;
  /** Why a submission would be refused now, in Japanese; null when it would not. */
  refusal: string | null;
};

export function StateBadge({ state }: { state: ListingState | 'closed' }) {
  return (
    <span className={styles.badge} data-state={state}>
      {LISTING_STATE_LABELS[state]}
    </span>
  );
}

function Notice({ tone, children }: { tone?: 'done' | 'caution'; children: ReactNode }) {
  return (
    <div
      className={[styles.notice, tone ? styles[tone] : null].filter(Boolean).join(' ')}
      role={tone === 'done' ? 'status' : undefined}
    >
      {children}
    </div>
  );
}

export function ListingStatus({ listing, done, refusal }: ListingStatusProps) {
  return (
    <section className={styles.status} aria-label="求人の状態">
      {listing ? (
        <p className={styles.stateLine}>
          <span>状態</span>
          <StateBadge state={listing.displayState} />
          <span className={styles.listingMeta}>最終更新 {formatDateJa(listing.updatedAt)}</span>
        </p>
      ) : (
        <p className={styles.stateLine}>
          <span>状態</span>
          <span className={styles.badge}>新規作成</span>
        </p>
      )}

      {done ? (
        <Notice tone="done">
          <p>{done}</p>
        </Notice>
      ) : null}

      {listing?.reviewComment ? (
        <div className={styles.returned} role="note" aria-labelledby="listing-return-reason">
          <h2 id="listing-return-reason" className={styles.returnedTitle}>
            差し戻しの理由
          </h2>
          <p className={styles.comment}>{listing.reviewComment}</p>
          <p className={styles.listingMeta}>
            編集部からのコメントです。内容を直して、もう一度「審査に提出」してください。
          </p>
        </div>
      ) : null}

      {listing ? <WhatEditingDoes listing={listing} /> : null}

      {refusal ? (
        <Notice tone="caution">
          <p>{refusal}</p>
          <p>下書きの保存とプレビューはできます。</p>
        </Notice>
      ) : null}
    </section>
  );
}

function WhatEditingDoes({ listing }: { listing: NonNullable<ListingStatusProps['listing']> }) {
  const liveLink = <Link href={`/jobs/${encodeURIComponent(listing.id)}`}>公開中の求人を見る</Link>;
  if (listing.displayState === 'in_review')
    return (
      <Notice>
        <p>
          審査中です。編集部の確認が終わるまでお待ちください。内容を変えて保存すると審査の依頼は取り下げられ、もう一度「審査に提出」するまで審査されません。
        </p>
        {listing.live ? <p>承認されるまでは、公開中の内容のまま掲載されます。{liveLink}</p> : null}
      </Notice>
    );
  if (listing.live)
    return (
      <Notice>
        <p>
          この求人は公開中です
          {listing.liveUntil
            ? `（${formatDateJa(`${listing.liveUntil}T00:00:00+09:00`)}まで）`
            : ''}
          。ここで変更した内容は、審査に提出して承認されたときに反映されます。それまでは今の内容のまま掲載されます。
        </p>
        <p>{liveLink}</p>
      </Notice>
    );
  if (listing.displayState === 'closed')
    return (
      <Notice>
        <p>
          この求人の募集は終了しました。募集締切を改めて審査に提出すると、承認後にふたたび掲載されます。
        </p>
      </Notice>
    );
  return null;
}
