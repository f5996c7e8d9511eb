import { Link } from '@/components/layout/site-link';
import { type ApplyLinks, JobArticle } from '@/components/jobs/job-article';
import { isClosed } from '@/lib/jobs';
import type { Job } from '@/server/features/content/schemas';
import {
  applyEmailOf,
  applyMailto,
  applyUrlOf,
} from '@/server/features/partners/jobs/apply-clicks';
import { jobTermsOf, paragraphsHtml } from '@/server/features/partners/jobs/listing-input';
import type { Listing } from '@/server/features/partners/jobs/listings';
import type { PartnerDetail } from '@/server/features/partners/partners';
import styles from './listing-preview.module.css';

/**
 * A partner's listing as /jobs/{id} will show it once approved: its working copy drawn with
 * the job page's own article (src/components/jobs/job-article.tsx), under a banner that says
 * it is not public. No JSON-LD, and the apply links go straight to the address (nothing is
 * counted: there is no published listing to count for).
 */

/** The `jobs` item the listing would become (its terms as toJobContent writes them). */
export function listingAsJob(listing: Listing, partner: PartnerDetail | null): Job {
  const f = listing.fields;
  const created = listing.createdAt.toISOString();
  const updated = listing.updatedAt.toISOString();
  return {
    id: listing.id,
    createdAt: created,
    updatedAt: updated,
    publishedAt: listing.publishedAt?.toISOString(),
    title: f.title,
    partner: partner && {
      id: partner.id,
      createdAt: created,
      updatedAt: updated,
      name: partner.name,
      description: partner.description || undefined,
      logo: partner.logo ?? undefined,
      website: partner.website || undefined,
    },
    description: f.description || undefined,
    body: paragraphsHtml(f.details) || undefined,
    ...jobTermsOf(f),
  };
}

function directApplyLinks(job: Job): ApplyLinks {
  const url = applyUrlOf(job);
  const email = applyEmailOf(job);
  return {
    url,
    email: email ? { address: email, href: applyMailto(email, job.title) } : null,
  };
}

export function ListingPreview({
  listing,
  partner,
  backTo,
}: {
  listing: Listing;
  partner: PartnerDetail | null;
  /** Where the viewer edits or reviews the listing. */
  backTo: { href: string; label: string };
}) {
  const job = listingAsJob(listing, partner);
  return (
    <>
      <div className={styles.banner} role="region" aria-label="プレビュー">
        <p className={styles.text}>
          <strong>プレビュー</strong>：
          {listing.publishedAt
            ? '編集中の内容です。公開中の求人には、承認後に反映されます'
            : 'この求人はまだ公開されていません'}
        </p>
        <Link href={backTo.href} className={styles.back}>
          {backTo.label}
        </Link>
      </div>
      <p className={styles.note}>
        公開時の見え方です。プレビューでは応募ボタンのクリックは数えず、応募先へそのまま移動します。
      </p>
      <JobArticle job={job} closed={isClosed(job.closingDate)} apply={directApplyLinks(job)} />
    </>
  );
}
