import { CardGrid } from '@/components/listing/content-card';
import { connectCard } from '@/components/listing/cards';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { type SearchParams, pageParam } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listConnect } from '@/server/content/lists';

type Props = { searchParams: SearchParams };

export const metadata = sitePageMetadata({
  title: 'コネクト',
  description:
    '会員どうしがつながるコミュニティ。ポートフォリオレビュー、スタジオ訪問、読書会など。',
  path: '/connect',
});

export default async function ConnectPage({ searchParams }: Props) {
  const page = pageParam((await searchParams).page);
  const pages = await listConnect(page);
  return (
    <ListPage
      title="コネクト"
      lead={
        <p>会員どうしがつながるコミュニティ。各ページの詳細はログインしてお読みいただけます。</p>
      }
    >
      {pages.items.length === 0 ? (
        <EmptyState>コネクトのページはまだありません。</EmptyState>
      ) : (
        <CardGrid items={pages.items.map(connectCard)} headingLevel={2} firstPriority />
      )}
      <Pagination basePath="/connect" page={pages.page} totalPages={pages.totalPages} />
    </ListPage>
  );
}
