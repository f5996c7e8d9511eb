import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { JobList } from '@/components/jobs/job-card';
import { JobFilterForm } from '@/components/jobs/job-filter-form';
import {
  type JobQuery,
  REMOTE_LOCATION,
  REMOTE_LOCATION_LABEL,
  isFiltered,
  jobQueryParams,
  jobsHref,
  parseJobQuery,
} from '@/components/jobs/job-query';
import styles from '@/components/jobs/jobs.module.css';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listJobs, listPartnerNames } from '@/server/features/content/lists';
import type { SearchParamsProps } from '@/components/listing/page-params';
import { formatNumber } from '@/lib/format';

/** 「東京都・正社員」: the conditions in use, for the title of a filtered list. */
function conditionsLabel(query: JobQuery, partners: readonly { id: string; name: string }[]) {
  return [
    query.partner ? partners.find((p) => p.id === query.partner)?.name : undefined,
    query.location === REMOTE_LOCATION ? REMOTE_LOCATION_LABEL : query.location,
    query.occupation,
    query.type,
  ]
    .filter(Boolean)
    .join('・');
}

export async function generateMetadata({ searchParams }: SearchParamsProps) {
  const query = parseJobQuery(await searchParams);
  const conditions = isFiltered(query) ? conditionsLabel(query, await listPartnerNames()) : '';
  const title = conditions ? `${conditions}の求人` : '求人';
  return sitePageMetadata({
    title: query.page > 1 ? `${title}（${query.page} ページ目）` : title,
    description: 'デザインに関わる仕事の求人情報。パートナー企業からの募集を掲載しています。',
    path: '/jobs',
    // Filtered and later pages are the same listings again: only the first page is indexed,
    // and every variant names /jobs as its canonical page (as /posts does).
    noIndex: isFiltered(query) || query.page > 1,
  });
}

export default async function JobsPage({ searchParams }: SearchParamsProps) {
  const query = parseJobQuery(await searchParams);
  const [jobs, partners] = await Promise.all([
    listJobs({
      page: query.page,
      employmentType: query.type,
      occupation: query.occupation,
      location: query.location,
      partner: query.partner,
    }),
    listPartnerNames(),
  ]);
  const filtered = isFiltered(query);
  return (
    <ListPage
      title="求人"
      lead={<p>デザインに関わる仕事の求人情報。パートナー企業からの募集を掲載しています。</p>}
    >
      {/* Keyed by the filters: a client-side move to other filters (「条件をクリア」) shows them,
          not the choices the uncontrolled selects still hold. */}
      <JobFilterForm
        key={JSON.stringify(jobQueryParams(query))}
        query={query}
        partners={partners}
      />
      <p className={styles.count}>
        <strong>{formatNumber(jobs.totalCount)}</strong>件の求人
      </p>
      {jobs.items.length > 0 ? (
        <JobList jobs={jobs.items} />
      ) : jobs.totalCount > 0 ? (
        <EmptyState action={{ href: jobsHref({ ...query, page: 1 }), label: '1 ページ目に戻る' }}>
          このページに表示する求人はありません。
        </EmptyState>
      ) : filtered ? (
        <EmptyState action={{ href: '/jobs', label: '条件をクリアしてすべての求人を見る' }}>
          条件に合う求人はありません。条件を変えてお探しください。
        </EmptyState>
      ) : (
        <EmptyState>掲載中の求人はありません。</EmptyState>
      )}
      <Pagination
        basePath="/jobs"
        params={jobQueryParams(query)}
        page={jobs.page}
        totalPages={jobs.totalPages}
      />
      <aside className={styles.forCompanies} aria-labelledby="for-companies">
        <h2 id="for-companies" className={styles.forCompaniesTitle}>
          求人を掲載したい企業の方へ
        </h2>
        <p>
          デザインに関わる人材を募集している企業さまは、パートナープログラムで求人を掲載できます。掲載の条件や料金はお問い合わせください。
        </p>
        <p>
          <Link href="/jobs/about/contact">求人掲載のお問い合わせ</Link>
        </p>
      </aside>
    </ListPage>
  );
}
