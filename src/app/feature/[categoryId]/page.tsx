import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import styles from '@/components/feature/feature.module.css';
import { IssueMasthead } from '@/components/feature/issue-masthead';
import { LeadStory } from '@/components/home/lead-story';
import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { EmptyState, Pagination } from '@/components/listing/list-page';
import { type SearchParams, pageParam } from '@/components/listing/page-params';
import { jsonLdSite, shareMetadata } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { breadcrumbJsonLd } from '@/lib/json-ld/breadcrumbs';
import { readFeature } from '@/server/features/access/read';
import { listPosts, postStandfirst } from '@/server/features/content/lists';

type Props = { params: Promise<{ categoryId: string }>; searchParams: SearchParams };

export async function generateMetadata({ params }: Props) {
  const { categoryId } = await params;
  const category = await readFeature(categoryId);
  if (!category) return { title: 'ページが見つかりません', robots: { index: false } };
  return shareMetadata({
    title: `特集「${category.name}」`,
    description: category.description,
    coverImage: category.coverImage,
    seo: category.seo,
    path: `/feature/${category.id}`,
    generated: {
      endpoint: 'categories',
      id: category.id,
      version: category.revisedAt ?? category.updatedAt,
      title: category.name,
    },
  });
}

export default async function FeatureIssuePage({ params, searchParams }: Props) {
  const { categoryId } = await params;
  const page = pageParam((await searchParams).page);
  const category = await readFeature(categoryId);
  if (!category) notFound();
  const posts = await listPosts({ category: category.id, page });
  // The issue opens with its newest article, large; the others follow as cards.
  const lead = page === 1 ? (posts.items[0] ?? null) : null;
  const others = lead ? posts.items.slice(1) : posts.items;
  const leadDek = lead ? await postStandfirst(lead.id) : undefined;
  return (
    <div className={styles.page}>
      <JsonLd
        data={breadcrumbJsonLd(jsonLdSite(), [
          { name: 'ホーム', path: '/' },
          { name: '特集', path: '/feature' },
          { name: category.name, path: `/feature/${category.id}` },
        ])}
      />
      <IssueMasthead issue={category} articleCount={posts.totalCount} />
      {posts.items.length === 0 ? (
        <EmptyState action={{ href: '/feature', label: 'ほかの特集を見る' }}>
          この特集の記事は準備中です。
        </EmptyState>
      ) : (
        <>
          {lead ? (
            <div className={styles.leadWrap}>
              <LeadStory item={postCard(lead)} dek={leadDek} priority={false} />
            </div>
          ) : null}
          {others.length > 0 ? (
            <section aria-labelledby="issue-articles-heading">
              <h2 id="issue-articles-heading" className={styles.articlesTitle}>
                {page === 1 ? 'この特集のほかの記事' : `この特集の記事（${page} ページ目）`}
              </h2>
              <CardGrid items={others.map(postCard)} />
            </section>
          ) : null}
        </>
      )}
      <Pagination
        basePath={`/feature/${category.id}`}
        page={posts.page}
        totalPages={posts.totalPages}
      />
      <Link href="/feature" className={styles.back}>
        ほかの特集を見る<span aria-hidden="true"> →</span>
      </Link>
    </div>
  );
}
