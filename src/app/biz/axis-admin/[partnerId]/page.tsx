import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { requireProgrammeStaff } from '@/server/features/partners/actor';
import styles from '@/components/biz/biz-admin.module.css';
import { contractPeriod, quotaText } from '@/components/biz/axis-admin/contract-text';
import { EditorJobsTable } from '@/components/biz/axis-admin/editor-jobs-table';
import { failure, flashFor, flashKey } from '@/lib/http/form-flash';
import { MemberSection } from '@/components/biz/axis-admin/member-section';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { BizLinks } from '@/components/biz/biz-links';
import { BizSection } from '@/components/biz/biz-section';
import { PartnerForm } from '@/components/biz/axis-admin/partner-form';
import { type ListingView, PartnerListings } from '@/components/biz/axis-admin/partner-listings';
import { listEditorPlacedJobs } from '@/components/biz/partner-admin/editor-jobs';
import { readFlash } from '@/server/platform/http/read-flash';
import { countApplyClicks, countJobViews } from '@/server/features/partners/jobs/apply-clicks';
import { listingChanges } from '@/server/features/partners/jobs/listing-input';
import {
  displayState,
  isLive,
  listPartnerListings,
} from '@/server/features/partners/jobs/listings';
import { CONTRACT_STATE_LABELS } from '@/lib/partners/contract-state';
import { listMembers } from '@/server/features/partners/members';
import { LOGO_MAX_BYTES, getPartner, partnerDeps } from '@/server/features/partners/partners';
import type { RouteParamsProps } from '@/components/listing/page-params';

// The partner's name is not in the title: a title is rendered before the page decides who
// may see it.
export const generateMetadata = gatedMetadata(
  requireProgrammeStaff,
  accountMetadata('パートナー企業の管理', '/biz/axis-admin'),
);

const EDIT_KEY = 'partner-edit';

/** Where on the page the form of a failed plain post is. */
function formAnchor(key: string | null): string | null {
  if (!key) return null;
  if (key === EDIT_KEY) return '#profile';
  if (key.startsWith('member-')) return '#members';
  const listing = /^(?:approve|return|close)-(job-[a-z0-9]{12})$/.exec(key);
  return listing ? `#listing-${listing[1]}` : null;
}

/** One partner for staff: its profile and contract, its listings and their review, its members. */
export default async function AxisAdminPartnerPage({ params }: RouteParamsProps<'partnerId'>) {
  await requireProgrammeStaff();
  const { partnerId } = await params;
  const deps = await partnerDeps();
  const partner = await getPartner(deps, partnerId);
  if (!partner) notFound();

  const now = new Date();
  const [listings, members, received] = await Promise.all([
    listPartnerListings(deps.db, partner.id),
    listMembers(deps.db, partner.id),
    readFlash(),
  ]);
  const flash = failure(received);
  const ids = listings.map((l) => l.id);
  const [views, clicks, editorJobs] = await Promise.all([
    countJobViews(deps.db, ids),
    countApplyClicks(deps.db, ids),
    listEditorPlacedJobs(deps.content, partner.id, new Set(ids)),
  ]);
  const listingViews: ListingView[] = listings.map((listing) => ({
    id: listing.id,
    state: displayState(listing, now),
    fields: listing.fields,
    changes:
      listing.state === 'in_review' && listing.reviewedFields
        ? listingChanges(listing.reviewedFields, listing.fields)
        : null,
    reviewComment: listing.reviewComment,
    revision: listing.revision,
    submittedAt: listing.submittedAt,
    updatedAt: listing.updatedAt,
    publishedAt: listing.publishedAt,
    liveUntil: listing.liveUntil,
    live: isLive(listing, now),
    views: views.get(listing.id) ?? 0,
    applyClicks: clicks.get(listing.id) ?? 0,
  }));
  const key = flashKey(flash);
  const period = contractPeriod(partner.contract);

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <p className={styles.breadcrumb}>
          <Link href="/biz/axis-admin">パートナープログラムの管理</Link> / {partner.name}
        </p>
        <h1 className={styles.title}>{partner.name}</h1>
        <dl className={styles.meta}>
          <dt>契約状況</dt>
          <dd>
            {CONTRACT_STATE_LABELS[partner.contractState]}
            {period ? `（${period}）` : ''}
          </dd>
          <dt>掲載枠</dt>
          <dd>{quotaText(partner.contract)}</dd>
        </dl>
        <BizLinks
          links={[
            { href: `/biz/partner-admin/${partner.id}`, label: '企業の管理画面を開く' },
            {
              href: `/jobs?partner=${encodeURIComponent(partner.id)}`,
              label: '公開中の求人を見る',
            },
            { href: '#listings', label: '求人' },
            { href: '#members', label: 'メンバー' },
            { href: '#profile', label: '企業情報と契約' },
          ]}
        />
      </header>
      <PageMessages flash={received} errorAt={formAnchor(key)} />
      <PartnerListings listings={listingViews} flash={flash} />
      <EditorJobsTable jobs={editorJobs} now={now} />
      <MemberSection
        partnerId={partner.id}
        partnerName={partner.name}
        members={members}
        flash={flash}
      />
      <BizSection id="profile" title="企業情報と契約">
        <div className={styles.narrow}>
          <PartnerForm
            action={`/api/biz/axis-admin/partners/${partner.id}`}
            formKey={EDIT_KEY}
            submitLabel="保存する"
            values={{
              name: partner.name,
              description: partner.description,
              website: partner.website,
              contractStart: partner.contract.contractStart ?? '',
              contractEnd: partner.contract.contractEnd ?? '',
              listingQuota:
                partner.contract.listingQuota === null ? '' : String(partner.contract.listingQuota),
            }}
            flash={flashFor(flash, EDIT_KEY)}
            logo={partner.logo}
            logoMaxBytes={LOGO_MAX_BYTES}
          />
        </div>
      </BizSection>
    </div>
  );
}
