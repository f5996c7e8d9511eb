import '@/styles/base';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import biz from '@/components/biz/biz-admin.module.css';
import { type BizLink, BizLinks } from '@/components/biz/biz-links';
import { DashboardHeader } from '@/components/biz/partner-admin/dashboard-header';
import {
  countedIds,
  editorJobRow,
  listingRow,
  mergeCounts,
  quotaUsage,
} from '@/components/biz/partner-admin/dashboard-model';
import { listEditorPlacedJobs } from '@/components/biz/partner-admin/editor-jobs';
import { ListingsSection } from '@/components/biz/partner-admin/listings-section';
import { MembersSection } from '@/components/biz/partner-admin/members-section';
import { ProfileSection } from '@/components/biz/partner-admin/profile-section';
import { partnerOfWriter } from '@/server/features/partners/partner-access';
import { readFlash } from '@/server/platform/http/read-flash';
import { countApplyClicks, countJobViews } from '@/server/features/partners/jobs/apply-clicks';
import { listPartnerListings } from '@/server/features/partners/jobs/listings';
import { requirePartnerAccess } from '@/server/features/partners/actor';
import { listMembers } from '@/server/features/partners/members';
import { PROFILE_SAVED } from '@/server/features/partners/partner-admin-http';
import { getPartner, partnerDeps } from '@/server/features/partners/partners';

/** The dashboard's sections, in the order the page shows them. */
const SECTION_LINKS: readonly BizLink[] = [
  { href: '#listings', label: '求人' },
  { href: '#profile', label: '企業情報' },
  { href: '#members', label: 'メンバー' },
];

export const generateMetadata = gatedMetadata(
  async ({ params }: Pick<Props, 'params'>) => requirePartnerAccess((await params).partnerId),
  accountMetadata('パートナー管理', '/biz/partner-admin'),
);

type Props = {
  params: Promise<{ partnerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * A partner's dashboard, for its members and staff only. Anyone else gets the site's 404,
 * asked before anything of the partner is read, so another partner's id is never confirmed.
 */
export default async function PartnerAdminPage({ params, searchParams }: Props) {
  const { partnerId } = await params;
  const actor = await requirePartnerAccess(partnerId);

  const deps = await partnerDeps();
  const partner = await getPartner(deps, partnerId);
  if (!partner) notFound();

  const now = new Date();
  const [listings, members, flash, query] = await Promise.all([
    listPartnerListings(deps.db, partnerId),
    listMembers(deps.db, partnerId),
    readFlash(),
    searchParams,
  ]);
  const editorJobs = await listEditorPlacedJobs(
    deps.content,
    partnerId,
    new Set(listings.map((listing) => listing.id)),
  );
  const ids = countedIds(listings, editorJobs);
  const [views, clicks] = await Promise.all([
    countJobViews(deps.db, ids),
    countApplyClicks(deps.db, ids),
  ]);
  const counts = mergeCounts(views, clicks);
  const staffView = actor.kind === 'staff';

  return (
    <div className={biz.page}>
      {query.saved === PROFILE_SAVED ? (
        <p role="status" className={biz.notice}>
          企業情報を保存しました。
        </p>
      ) : null}
      <DashboardHeader
        partner={partner}
        usage={quotaUsage(partner.contract, listings, now)}
        staffView={staffView}
      />
      <nav aria-label="このページの内容">
        <BizLinks links={SECTION_LINKS} />
      </nav>
      <ListingsSection
        listings={listings.map((listing) => listingRow(listing, counts, now))}
        editorJobs={editorJobs.map((job) => editorJobRow(job, counts, now))}
        canWrite={partnerOfWriter(actor) === partnerId}
      />
      <ProfileSection partner={partner} flash={flash} />
      <MembersSection partnerId={partnerId} members={members} staffView={staffView} />
    </div>
  );
}
