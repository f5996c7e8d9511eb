import '@/styles/base';
import { seriesPath } from '@/lib/authors/works';
import type { Metadata } from 'next';
import { currentIssue } from '@/components/feature/issue';
import { FeatureSpotlight } from '@/components/home/feature-spotlight';
import { HomeHero } from '@/components/home/home-hero';
import { HomeSection } from '@/components/home/home-section';
import { HOME_COUNTS, homeFetchSizes, selectHomePosts } from '@/lib/home/home-selection';
import { LeadStory } from '@/components/home/lead-story';
import { StoryList } from '@/components/home/story-list';
import styles from '@/components/home/home.module.css';
import type { CardItem } from '@/components/listing/content-card';
import { audioCard, jobCard, movieCard, postCard } from '@/components/listing/cards';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { env } from '@/env';
import { organizationJsonLd, webSiteJsonLd } from '@/lib/json-ld/organization';
import { SITE_DESCRIPTION } from '@/lib/site';
import {
  type SeriesItem,
  listAudios,
  listCategories,
  listFeaturedPosts,
  listJobs,
  listMovies,
  listPosts,
  postStandfirst,
  listSeries,
} from '@/server/features/content/lists';

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
    listJobs({ size: SIDE_COUNT }),
  ]);
  const issue = currentIssue(categories);
  const issuePosts = issue ? await listPosts({ category: issue.id, size: sizes.feature }) : null;
  const posts = selectHomePosts({
    featured,
    latest: latest.items,
    feature: issuePosts?.items ?? [],
    insight: insight.items,
  });
  const leadDek = posts.lead ? await postStandfirst(posts.lead.id) : undefined;

  // The compact sections, side by side on a wide screen: three, then two.
  const trio: CompactSection[] = [
    {
      id: 'series',
      title: '連載',
      href: '/series',
      items: series.slice(0, SIDE_COUNT).map(seriesItem),
    },
    { id: 'movies', title: '動画', href: '/movies', items: movies.items.map(movieCard) },
    { id: 'audios', title: '音声', href: '/audios', items: audios.items.map(audioCard) },
  ].map(withMore);
  const pair: CompactSection[] = [
    { id: 'insight', title: 'インサイト', href: '/insight', items: posts.insight.map(postCard) },
    {
      id: 'jobs',
      title: '新着の求人',
      href: '/jobs',
      items: jobs.items.map(jobCard),
      more: '求人一覧',
    },
  ].map(withMore);

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
            <LeadStory item={postCard(posts.lead)} dek={leadDek} headingLevel={3} />
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

        {[trio, pair].map((row, index) => (
          <div key={index} className={index === 0 ? styles.trio : styles.pair}>
            {row
              .filter((section) => section.items.length > 0)
              .map((section) => (
                <HomeSection
                  key={section.id}
                  id={`${section.id}-heading`}
                  title={section.title}
                  more={section.more}
                >
                  <StoryList items={section.items} />
                </HomeSection>
              ))}
          </div>
        ))}
      </div>
    </>
  );
}

type CompactSection = {
  id: string;
  title: string;
  items: CardItem[];
  more: { href: string; label: string };
};

/** Each section's 一覧 link: 「連載一覧」 and the like, unless the section names its own. */
function withMore(section: {
  id: string;
  title: string;
  href: string;
  items: CardItem[];
  more?: string;
}): CompactSection {
  const { href, more, ...rest } = section;
  return { ...rest, more: { href, label: more ?? `${section.title}一覧` } };
}

/** A series as a row, to its page. No kicker: under the 連載 heading it would only repeat it. */
function seriesItem(series: SeriesItem): CardItem {
  const writers = series.writers.flatMap((w) => ('name' in w ? [w.name] : []));
  return {
    href: seriesPath(series.id),
    title: series.title,
    meta: writers.length ? `文・${writers.join('、')}` : null,
    image: series.coverImage ? { url: series.coverImage.url, alt: series.coverImage.alt } : null,
  };
}
