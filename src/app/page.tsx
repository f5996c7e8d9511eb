import type { Metadata } from 'next';
import Link from 'next/link';
import { CardGrid } from '@/components/listing/content-card';
import { audioCard, jobCard, movieCard, postCard } from '@/components/listing/cards';
import { Section } from '@/components/listing/list-page';
import listing from '@/components/listing/listing.module.css';
import styles from '@/components/home/home.module.css';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { env } from '@/env';
import { organizationJsonLd, webSiteJsonLd } from '@/lib/json-ld';
import { SITE_DESCRIPTION, SITE_TAGLINE } from '@/lib/site';
import {
  listAudios,
  listCategories,
  listFeaturedPosts,
  listJobs,
  listMovies,
  listPosts,
  listSeries,
} from '@/server/content/lists';

export function generateMetadata(): Metadata {
  // The home page takes the site defaults; only its title is the bare site name.
  return { title: { absolute: env().SITE_NAME } };
}

// Content is read per request (the build never opens the database).
export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const [featured, latest, categories, series, movies, audios, insight, jobs] = await Promise.all([
    listFeaturedPosts(),
    listPosts({ size: 6 }),
    listCategories(),
    listSeries(),
    listMovies(1, 3),
    listAudios(1, 3),
    listPosts({ format: 'insight', size: 3 }),
    listJobs(1, 3),
  ]);
  // The current feature issue: the newest featured category (else the newest one).
  const feature = categories.find((c) => c.isFeatured) ?? categories[0];
  const featurePosts = feature ? await listPosts({ category: feature.id, size: 3 }) : null;

  const site = jsonLdSite();
  return (
    <>
      <JsonLd
        data={[
          organizationJsonLd(site, { description: SITE_DESCRIPTION }),
          webSiteJsonLd(site, { description: SITE_DESCRIPTION }),
        ]}
      />
      <section className={styles.hero} aria-labelledby="hero-heading">
        <div className={styles.heroInner}>
          <p className={styles.kicker}>{env().SITE_NAME}</p>
          <h1 id="hero-heading" className={styles.heading}>
            {SITE_TAGLINE}
          </h1>
          <p className={styles.lead}>{SITE_DESCRIPTION}</p>
          <div className={styles.actions}>
            <Link href="/sign-up" className={styles.primary}>
              無料で会員登録
            </Link>
            <Link href="/service-plans" prefetch={false} className={styles.secondary}>
              料金プランを見る
            </Link>
          </div>
        </div>
      </section>

      <div className={listing.page}>
        {featured.length > 0 ? (
          <Section id="featured-heading" title="注目記事">
            <CardGrid items={featured.map(postCard)} firstPriority />
          </Section>
        ) : null}

        <Section id="latest-heading" title="新着記事" more={{ href: '/posts', label: '記事一覧' }}>
          <CardGrid items={latest.items.map(postCard)} firstPriority={featured.length === 0} />
        </Section>

        {feature && featurePosts ? (
          <Section
            id="feature-heading"
            title={`特集${feature.issueNumber ? ` No.${feature.issueNumber}` : ''}「${feature.name}」`}
            more={{ href: `/feature/${feature.id}`, label: 'この特集を読む' }}
          >
            {feature.description ? (
              <p className={styles.sectionLead}>{feature.description}</p>
            ) : null}
            <CardGrid items={featurePosts.items.map(postCard)} />
          </Section>
        ) : null}

        {series.length > 0 ? (
          <Section id="series-heading" title="連載" more={{ href: '/series', label: '連載一覧' }}>
            <CardGrid
              items={series.slice(0, 3).map((s) => ({
                href: `/series#series-${s.id}`,
                title: s.title,
                kicker: '連載',
                description: s.description,
                image: s.coverImage ? { url: s.coverImage.url, alt: s.coverImage.alt } : null,
              }))}
            />
          </Section>
        ) : null}

        {movies.items.length > 0 ? (
          <Section id="movies-heading" title="動画" more={{ href: '/movies', label: '動画一覧' }}>
            <CardGrid items={movies.items.map(movieCard)} />
          </Section>
        ) : null}

        {audios.items.length > 0 ? (
          <Section id="audios-heading" title="音声">
            <CardGrid items={audios.items.map(audioCard)} />
          </Section>
        ) : null}

        {insight.items.length > 0 ? (
          <Section
            id="insight-heading"
            title="インサイト"
            more={{ href: '/insight', label: 'インサイト一覧' }}
          >
            <CardGrid items={insight.items.map(postCard)} />
          </Section>
        ) : null}

        {jobs.items.length > 0 ? (
          <Section id="jobs-heading" title="新着の求人" more={{ href: '/jobs', label: '求人一覧' }}>
            <CardGrid items={jobs.items.map(jobCard)} />
          </Section>
        ) : null}
      </div>
    </>
  );
}
