import type { Metadata } from 'next';
import { currentIssue } from '@/components/feature/issue';
import { FeatureSpotlight } from '@/components/home/feature-spotlight';
import { HomeHero } from '@/components/home/home-hero';
import { HomeSection } from '@/components/home/home-section';
import { HOME_COUNTS, homeFetchSizes, selectHomePosts } from '@/components/home/home-selection';
import { LeadStory } from '@/components/home/lead-story';
import { StoryList } from '@/components/home/story-list';
import styles from '@/components/home/home.module.css';
import type { CardItem } from '@/components/listing/content-card';
import { audioCard, jobCard, movieCard, postCard } from '@/components/listing/cards';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { env } from '@/env';
import { organizationJsonLd, webSiteJsonLd } from '@/lib/json-ld';
import { SITE_DESCRIPTION } from '@/lib/site';
import {
  type SeriesItem,
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

/** Rows per compact section (連載, 動画, 音声, 求人). */
const SIDE_COUNT = 3;

export default async function HomePage() {
  const sizes = homeFetchSizes();
  const [featured, latest, categories, series, movies, audios, insight, jobs] = await Promise.all([
    listFeaturedPosts(),
    listPosts({ size: sizes.latest }),
    listCategories(),
    listSeries(),
    listMovies(1, SIDE_COUNT),
    listAudios(1, SIDE_COUNT),
    listPosts({ format: 'insight', size: sizes.insight }),
    listJobs(1, SIDE_COUNT),
  ]);
  const issue = currentIssue(categories);
  const issuePosts = issue ? await listPosts({ category: issue.id, size: sizes.feature }) : null;
  const posts = selectHomePosts({
    featured,
    latest: latest.items,
    feature: issuePosts?.items ?? [],
    insight: insight.items,
  });

  const site = jsonLdSite();
  return (
    <>
      <JsonLd
        data={[
          organizationJsonLd(site, { description: SITE_DESCRIPTION }),
          webSiteJsonLd(site, { description: SITE_DESCRIPTION }),
        ]}
      />
      <HomeHero />

      <div className={styles.page}>
        {posts.lead ? (
          <section className={styles.top} aria-labelledby="top-heading">
            <h2 id="top-heading" className="visually-hidden">
              注目記事
            </h2>
            <LeadStory item={postCard(posts.lead)} dek={posts.lead.description} headingLevel={3} />
            {posts.picks.length > 0 ? (
              <div className={styles.picks}>
                <StoryList items={posts.picks.map(postCard)} layout="cards" columns={3} />
              </div>
            ) : null}
          </section>
        ) : null}

        {posts.latest.length > 0 ? (
          <HomeSection
            id="latest-heading"
            title="新着記事"
            more={{ href: '/posts', label: '記事一覧' }}
          >
            <StoryList
              items={posts.latest.map(postCard)}
              layout="cards"
              columns={HOME_COUNTS.latest}
            />
          </HomeSection>
        ) : null}

        {issue ? (
          <HomeSection
            id="feature-heading"
            title="特集"
            more={{ href: '/feature', label: '特集一覧' }}
          >
            <FeatureSpotlight issue={issue} posts={posts.feature.map(postCard)} />
          </HomeSection>
        ) : null}

        <div className={styles.trio}>
          {series.length > 0 ? (
            <HomeSection
              id="series-heading"
              title="連載"
              more={{ href: '/series', label: '連載一覧' }}
            >
              <StoryList items={series.slice(0, SIDE_COUNT).map(seriesItem)} />
            </HomeSection>
          ) : null}
          {movies.items.length > 0 ? (
            <HomeSection
              id="movies-heading"
              title="動画"
              more={{ href: '/movies', label: '動画一覧' }}
            >
              <StoryList items={movies.items.map(movieCard)} />
            </HomeSection>
          ) : null}
          {audios.items.length > 0 ? (
            <HomeSection
              id="audios-heading"
              title="音声"
              more={{ href: '/audios', label: '音声一覧' }}
            >
              <StoryList items={audios.items.map(audioCard)} />
            </HomeSection>
          ) : null}
        </div>

        <div className={styles.pair}>
          {posts.insight.length > 0 ? (
            <HomeSection
              id="insight-heading"
              title="インサイト"
              more={{ href: '/insight', label: 'インサイト一覧' }}
            >
              <StoryList items={posts.insight.map(postCard)} />
            </HomeSection>
          ) : null}
          {jobs.items.length > 0 ? (
            <HomeSection
              id="jobs-heading"
              title="新着の求人"
              more={{ href: '/jobs', label: '求人一覧' }}
            >
              <StoryList items={jobs.items.map(jobCard)} />
            </HomeSection>
          ) : null}
        </div>
      </div>
    </>
  );
}

/**
 * A series as a row: it has no page of its own, so it links to its place on /series. No
 * kicker: under the 連載 heading it would only repeat it.
 */
function seriesItem(series: SeriesItem): CardItem {
  const writers = series.writers.flatMap((w) => ('name' in w ? [w.name] : []));
  return {
    href: `/series#series-${series.id}`,
    title: series.title,
    meta: writers.length ? `文・${writers.join('、')}` : null,
    image: series.coverImage ? { url: series.coverImage.url, alt: series.coverImage.alt } : null,
  };
}
