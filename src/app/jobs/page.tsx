import { CardGrid } from '@/components/listing/content-card';
import { jobCard } from '@/components/listing/cards';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { type SearchParams, pageParam } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listJobs } from '@/server/content/lists';

type Props = { searchParams: SearchParams };

export const metadata = sitePageMetadata({
  title: '求人',
  description: 'デザインに関わる仕事の求人情報。パートナー企業からの募集を掲載しています。',
  path: '/jobs',
});

export default async function JobsPage({ searchParams }: Props) {
  const page = pageParam((await searchParams).page);
  const jobs = await listJobs(page);
  return (
    <ListPage title="求人" lead={<p>デザインに関わる仕事の求人情報。</p>}>
      {jobs.items.length === 0 ? (
        <EmptyState>掲載中の求人はありません。</EmptyState>
      ) : (
        <CardGrid items={jobs.items.map(jobCard)} headingLevel={2} firstPriority />
      )}
      <Pagination basePath="/jobs" page={jobs.page} totalPages={jobs.totalPages} />
    </ListPage>
  );
}
