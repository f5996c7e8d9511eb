import '@/styles/base';
import { notFound } from 'next/navigation';
import { SeriesHeader } from '@/components/authors/author-profile';
import styles from '@/components/authors/authors.module.css';
import { CoverImage } from '@/components/content/item-header';
import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { EmptyState, Section } from '@/components/listing/list-page';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { jsonLdSite, sitePageMetadata } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { seriesPath } from '@/lib/authors/works';
import { seriesFeedLink, seriesFeedPath } from '@/lib/feeds';
import { seriesJsonLd } from '@/lib/json-ld/authors-and-series';
import { breadcrumbJsonLd } from '@/lib/json-ld/breadcrumbs';
import { readSeries } from '@/server/features/access/read';
import { listSeriesEpisodes } from '@/server/features/content/lists';

// Content is read per request (the build never opens the database).
export const dynamic = 'force-dynamic';

type Props = RouteParamsProps<'seriesId'>;

/** Only a writer the service expanded (depth 1) has a name to show and a page to link. */
const namedWriters = (writers: readonly ({ id: string } | { id: string; name: string })[]) =>
  writers.flatMap((w) => ('name' in w ? [{ id: w.id, name: w.name }] : []));

export async function generateMetadata({ params }: Props) {
  const series = await readSeries((await params).seriesId);
  if (!series) return { title: 'ページが見つかりません', robots: { index: false } };
  return sitePageMetadata({
    title: `連載「${series.title}」`,
    description: series.description ?? `連載「${series.title}」の記事を第 1 回から順に。`,
    path: seriesPath(series.id),
    image: series.coverImage
      ? { ...series.coverImage, alt: series.coverImage.alt ?? series.title }
      : undefined,
    feeds: [seriesFeedLink(series)],
  });
}

/**
 * A series (docs/decisions/035-authors-and-series.md): its description and its episodes from
 * the first, each card with its access label and its number, and its own feed.
 */
export default async function SeriesItemPage({ params }: Props) {
  const series = await readSeries((await params).seriesId);
  if (!series) notFound();
  const episodes = await listSeriesEpisodes(series.id);
  const path = seriesPath(series.id);
  return (
    <div className={styles.page}>
      <JsonLd
        data={[
          ...seriesJsonLd(
            jsonLdSite(),
            { ...series, writers: namedWriters(series.writers) },
            episodes,
          ),
          breadcrumbJsonLd(jsonLdSite(), [
            { name: 'ホーム', path: '/' },
            { name: '連載', path: '/series' },
            { name: series.title, path },
          ]),
        ]}
      />
      <SeriesHeader
        series={{ ...series, writers: namedWriters(series.writers) }}
        count={episodes.length}
        feedUrl={seriesFeedPath(series.id)}
      />
      {series.coverImage ? (
        <figure className={styles.cover}>
          <CoverImage image={series.coverImage} sizes="(min-width: 42rem) 42rem, 100vw" />
        </figure>
      ) : null}
      <Section id="series-episodes-heading" title="この連載の記事">
        {episodes.length === 0 ? (
          <EmptyState action={{ href: '/series', label: 'ほかの連載を見る' }}>
            この連載の記事は準備中です。
          </EmptyState>
        ) : (
          <CardGrid
            items={episodes.map((post, i) => ({ ...postCard(post), kicker: `第${i + 1}回` }))}
          />
        )}
      </Section>
    </div>
  );
}
