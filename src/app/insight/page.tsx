import '@/styles/base';
import { postCard } from '@/components/listing/cards';
import { EmptyState, ListPage, PagedCards } from '@/components/listing/list-page';
import { pageParam, type SearchParamsProps } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listPosts } from '@/server/features/content/lists';

export const metadata = sitePageMetadata({
  title: 'インサイト',
  description: 'デザインの潮流を読み解く分析と考察。',
  path: '/insight',
});

export default async function InsightPage({ searchParams }: SearchParamsProps) {
  const page = pageParam((await searchParams).page);
  const posts = await listPosts({ page, format: 'insight' });
  return (
    <ListPage title="インサイト" lead={<p>デザインの潮流を読み解く分析と考察。</p>}>
      <PagedCards
        list={posts}
        card={postCard}
        basePath="/insight"
        empty={
          <EmptyState action={{ href: '/posts', label: '記事一覧へ' }}>
            インサイトの記事はまだありません。
          </EmptyState>
        }
      />
    </ListPage>
  );
}
