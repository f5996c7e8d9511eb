import { notFound } from 'next/navigation';
import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { type SearchParams, pageParam } from '@/components/listing/page-params';
import { jsonLdSite, sitePageMetadata } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { breadcrumbJsonLd } from '@/lib/json-ld';
import { readFeature } from '@/server/access/read';
import { listPosts } from '@/server/content/lists';

type Props = { params: Promise<{ categoryId: string }>; searchParams: SearchParams };

export async function generateMetadata({ params }: Props) {
  const { categoryId } = await params;
  const category = await readFeature(categoryId);
  if (!category) return { title: 'ページが見つかりません', robots: { index: false } };
  return sitePageMetadata({
    title: `特集「${category.name}」`,
    description: category.description,
    path: `/feature/${category.id}`,
    image: category.coverImage ?? null,
  });
}

export default async function FeatureIssuePage({ params, searchParams }: Props) {
  const { categoryId } = await params;
  const page = pageParam((await searchParams).page);
  const category = await readFeature(categoryId);
  if (!category) notFound();
  const posts = await listPosts({ category: category.id, page });
  return (
    <ListPage
      title={category.name}
      kicker={category.issueNumber ? `特集 No.${category.issueNumber}` : '特集'}
      lead={category.description ? <p>{category.description}</p> : null}
    >
      <JsonLd
        data={breadcrumbJsonLd(jsonLdSite(), [
          { name: 'ホーム', path: '/' },
          { name: '特集', path: '/feature' },
          { name: category.name, path: `/feature/${category.id}` },
        ])}
      />
      {posts.items.length === 0 ? (
        <EmptyState action={{ href: '/feature', label: 'ほかの特集を見る' }}>
          この特集の記事は準備中です。
        </EmptyState>
      ) : (
        <CardGrid items={posts.items.map(postCard)} headingLevel={2} firstPriority />
      )}
      <Pagination
        basePath={`/feature/${category.id}`}
        page={posts.page}
        totalPages={posts.totalPages}
      />
    </ListPage>
  );
}
