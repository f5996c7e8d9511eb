import { Link } from '@/components/layout/site-link';
import { formatDateJa } from '@/lib/format';
import type { ListingState } from '@/lib/jobs';
import { StateBadge } from './listing-status';
import styles from './jobs-post.module.css';

/**
 * The partner's listings beside the form, so a draft is never lost from sight: the most
 * recently changed first, a few of them; the dashboard has them all with their figures.
 */

export type ListingSummary = {
  id: string;
  title: string;
  state: ListingState | 'closed';
  updatedAt: Date;
};

const SHOWN = 8;

export function PartnerListings({
  partnerId,
  listings,
  currentId,
}: {
  partnerId: string;
  listings: readonly ListingSummary[];
  currentId: string | null;
}) {
  const dashboard = `/biz/partner-admin/${encodeURIComponent(partnerId)}`;
  return (
    <aside className={styles.aside} aria-labelledby="partner-listings">
      <h2 id="partner-listings" className={styles.asideTitle}>
        貴社の求人
      </h2>
      {listings.length === 0 ? (
        <p className={styles.empty}>まだ求人はありません。</p>
      ) : (
        <ul className={styles.listings}>
          {listings.slice(0, SHOWN).map((listing) => (
            <li
              key={listing.id}
              className={styles.listing}
              aria-current={listing.id === currentId ? 'page' : undefined}
            >
              <p className={styles.listingTitle}>{listing.title || '（タイトル未入力）'}</p>
              <p className={styles.listingMeta}>
                <StateBadge state={listing.state} />
                <span>更新 {formatDateJa(listing.updatedAt)}</span>
              </p>
              <p className={styles.listingLinks}>
                <Link href={`/jobs/post?listing=${encodeURIComponent(listing.id)}`}>
                  編集<span className="visually-hidden">：{listing.title}</span>
                </Link>
                <Link href={`/jobs/preview/${encodeURIComponent(listing.id)}`}>
                  プレビュー<span className="visually-hidden">：{listing.title}</span>
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className={styles.inlineLinks}>
        {currentId !== null ? <Link href="/jobs/post">新しい求人を作成</Link> : null}
        <Link href={dashboard}>
          {listings.length > SHOWN ? 'すべての求人と閲覧数を見る' : '閲覧数・応募クリック数を見る'}
        </Link>
      </p>
    </aside>
  );
}
