import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { requireProgrammeStaff } from '@/server/features/partners/actor';
import styles from '@/components/biz/biz-admin.module.css';
import {
  type InquiryView,
  InquiryList,
  inquiryFormKey,
} from '@/components/biz/axis-admin/inquiry-list';
import { failure, flashFor, flashKey } from '@/lib/http/form-flash';
import { parseAxisAdminQuery } from '@/components/biz/axis-admin/list-query';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { PartnerTable } from '@/components/biz/axis-admin/partner-table';
import { type QueuedListing, ReviewQueue } from '@/components/biz/axis-admin/review-queue';
import { readFlash } from '@/server/platform/http/read-flash';
import { listPartnerInquiries } from '@/server/features/inquiries/inquiries';
import { listReviewQueue } from '@/server/features/partners/jobs/listings';
import { listPartners, partnerDeps, partnerNames } from '@/server/features/partners/partners';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const generateMetadata = gatedMetadata(
  requireProgrammeStaff,
  accountMetadata('パートナープログラムの管理', '/biz/axis-admin'),
);

/** The inquiry whose state change failed, to jump back to. */
const inquiryAnchor = (key: string | null) => (key?.startsWith('inquiry-') ? `#${key}` : null);

/** The programme's staff screen: listings to review, partners, and companies' inquiries. */
export default async function AxisAdminPage({ searchParams }: SearchParamsProps) {
  await requireProgrammeStaff();

  const query = parseAxisAdminQuery(await searchParams);
  const deps = await partnerDeps();
  const [queue, names, partners, inquiries, received] = await Promise.all([
    listReviewQueue(deps.db),
    partnerNames(deps),
    listPartners(deps, { q: query.q, page: query.page }),
    listPartnerInquiries(deps.db, { page: query.ipage }),
    readFlash(),
  ]);

  const flash = failure(received);
  const nameOf = new Map(names.map((p) => [p.id, p.name]));
  const queued: QueuedListing[] = queue.map((listing) => ({
    id: listing.id,
    title: listing.fields.title,
    partnerId: listing.partnerId,
    partnerName: nameOf.get(listing.partnerId) ?? listing.partnerId,
    submittedAt: listing.submittedAt,
  }));
  const inquiryViews: InquiryView[] = inquiries.items.map((row) => ({
    id: row.id,
    kind: row.kind,
    company: row.company,
    name: row.name,
    email: row.email,
    phone: row.phone,
    website: row.website,
    companySize: row.companySize,
    plan: row.plan,
    message: row.message,
    state: row.state,
    receivedAt: row.createdAt,
  }));
  // The parameters each list keeps when the other one moves.
  const params = {
    q: query.q || undefined,
    page: query.page > 1 ? String(query.page) : undefined,
    ipage: inquiries.page > 1 ? String(inquiries.page) : undefined,
  };

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <p className={styles.breadcrumb}>
          <Link href="/admin">管理画面</Link> / パートナープログラム
        </p>
        <h1 className={styles.title}>パートナープログラムの管理</h1>
        <p className={styles.lead}>
          パートナー企業の契約とメンバー、求人の審査、企業からの申し込み・問い合わせを扱います。
        </p>
      </header>
      <PageMessages flash={received} errorAt={inquiryAnchor(flashKey(flash))} />
      <ReviewQueue items={queued} />
      <PartnerTable
        items={partners.items}
        totalCount={partners.totalCount}
        page={partners.page}
        pageCount={partners.pageCount}
        q={query.q}
        params={params}
      />
      <InquiryList
        items={inquiryViews}
        total={inquiries.total}
        page={inquiries.page}
        totalPages={inquiries.totalPages}
        params={params}
        errorOf={(id) => flashFor(flash, inquiryFormKey(id))?.message ?? null}
      />
    </div>
  );
}
