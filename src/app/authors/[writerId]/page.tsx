import '@/styles/base';
import { notFound } from 'next/navigation';
import { AuthorProfile } from '@/components/authors/author-profile';
import styles from '@/components/authors/authors.module.css';
import { workCard } from '@/components/authors/work-card';
import { CardGrid } from '@/components/listing/content-card';
import { EmptyState, Pagination, Section } from '@/components/listing/list-page';
import { type SearchParams, pageParam } from '@/components/listing/page-params';
import { jsonLdSite, sitePageMetadata } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { authorPath, seriesPath } from '@/lib/authors/works';
import { profilePageJsonLd } from '@/lib/json-ld/authors-and-series';
import { breadcrumbJsonLd } from '@/lib/json-ld/breadcrumbs';
import { truncateDescription } from '@/lib/metadata';
import { readWriter } from '@/server/features/access/read';
import { listWorksBy } from '@/server/features/content/author-works';
import { listSeries } from '@/server/features/content/lists';

// Content is read per request (the build never opens the database).
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ writerId: string }>; searchParams: SearchParams };

export async function generateMetadata({ params, searchParams }: Props) {
  const writer = await readWriter((await params).writerId);
  if (!writer) return { title: 'ページが見つかりません', robots: { index: false } };
  const page = pageParam((await searchParams).page);
  return sitePageMetadata({
    title: page > 1 ? `${writer.name}（${page} ページ目）` : writer.name,
    description: writer.profile
      ? truncateDescription(`${writer.role ? `${writer.role}。` : ''}${writer.profile}`)
      : `${writer.name}の記事と番組の一覧。`,
    path: authorPath(writer.id),
    // Later pages are the same list again: only the first is indexed.
    noIndex: page > 1,
  });
}

/**
 * A writer's page (docs/decisions/035-authors-and-series.md): portrait, profile and everything
 * they wrote or appear in, newest first, with the cards' access labels. The same for every
 * reader of an audience, so the page cache keeps it (docs/decisions/007-pages-per-audience.md).
 */
export default async function AuthorPage({ params, searchParams }: Props) {
  const writer = await readWriter((await params).writerId);
  if (!writer) notFound();
  const page = pageParam((await searchParams).page);
  const [works, allSeries] = await Promise.all([listWorksBy(writer.id, { page }), listSeries()]);
  // The series they write, on the first page, above everything else they wrote.
  const series =
    page === 1 ? allSeries.filter((s) => s.writers.some((w) => w.id === writer.id)) : [];
  // A page past the last one does not exist (the first one does, even when empty).
  if (page > works.totalPages) notFound();
  const path = authorPath(writer.id);
  return (
    <div className={styles.page}>
      <JsonLd
        data={[
          profilePageJsonLd(jsonLdSite(), writer),
          breadcrumbJsonLd(jsonLdSite(), [
            { name: 'ホーム', path: '/' },
            { name: writer.name, path },
          ]),
        ]}
      />
      <AuthorProfile writer={writer} count={works.totalCount} />
      {series.length > 0 ? (
        <Section id="author-series-heading" title="担当の連載">
          <CardGrid
            items={series.map((s) => ({
              href: seriesPath(s.id),
              title: s.title,
              kicker: '連載',
              description: s.description,
              image: s.coverImage ? { url: s.coverImage.url, alt: s.coverImage.alt } : null,
            }))}
          />
        </Section>
      ) : null}
      <Section
        id="author-works-heading"
        title={page > 1 ? `${writer.name}の記事（${page} ページ目）` : `${writer.name}の記事`}
      >
        {works.items.length === 0 ? (
          <EmptyState action={{ href: '/posts', label: '新着記事を見る' }}>
            {writer.name}さんの記事はまだありません。
          </EmptyState>
        ) : (
          <CardGrid items={works.items.map(workCard)} />
        )}
        <Pagination basePath={path} page={works.page} totalPages={works.totalPages} />
      </Section>
    </div>
  );
}
