import '@/styles/base';
import '@/styles/item';
import type { Metadata } from 'next';
import { Link } from '@/components/layout/site-link';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { AuthorLinks } from '@/components/content/author-links';
import { ItemCover, ItemHeader } from '@/components/content/item-header';
import { FreePlanNote, MeterNote } from '@/components/content/paywall';
import { PaywalledLead } from '@/components/content/paywalled-lead';
import { RichText, richBody } from '@/components/content/rich-text';
import { TableOfContents } from '@/components/content/table-of-contents';
import { readingTimeLabel } from '@/lib/reading-time';
import { bodyCharacters } from '@/lib/access/lead';
import { ShareLinks } from '@/components/content/share-links';
import styles from '@/components/content/article.module.css';
import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { Section } from '@/components/listing/list-page';
import { itemPageMetadata, jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { PAYWALLED_CLASS } from '@/lib/json-ld/article';
import { contentItemJsonLd } from '@/lib/json-ld/content-item';
import { env } from '@/env';
import { seriesPath } from '@/lib/authors/works';
import { seriesFeedLink } from '@/lib/feeds';
import { PreviewBanner } from '@/components/preview/preview-banner.client';
import { readPost } from '@/server/features/access/read';
import { type PostCard, listPosts, listSeriesEpisodes } from '@/server/features/content/lists';
import type { Post } from '@/server/features/content/schemas';
import type { RouteParamsProps, SearchParamsProps } from '@/components/listing/page-params';
import { GiftBanner, GiftLink, GiftRefusedNote } from '@/components/gifts/gift-banner';
import { GiftInvitation, PlanInvitation } from '@/components/gifts/gift-invitation';
import { GIFT_PARAM, giftTokenOf } from '@/lib/gifts/gift-link';
import { mayGift } from '@/lib/access/post-access';
import { leadTextOf, readShownOr404 } from '@/components/content/item-page';
import { DoneNotice } from '@/components/ui/done-notice';
import { TipBlock } from '@/components/tips/tip-form';
import { CommentsSection } from '@/components/comments/comments-section';

// The query is optional for the tests that render the page without one.
type PostPageProps = RouteParamsProps<'contentId'> & Partial<SearchParamsProps>;

/** The gift link's token of the request (docs/decisions/037-gift-articles.md), if it has one. */
const giftTokenIn = async (searchParams: PostPageProps['searchParams']) =>
  giftTokenOf((await searchParams)?.[GIFT_PARAM]);

export async function generateMetadata({ params, searchParams }: PostPageProps): Promise<Metadata> {
  const gift = await giftTokenIn(searchParams);
  const read = await readPost((await params).contentId, gift);
  const series = read?.item.series;
  return itemPageMetadata('posts', read?.item, {
    // A gift link's page is its reader's, never a search engine's.
    noIndex: read?.preview || gift !== undefined,
    leadText: read ? leadTextOf(read) : null,
    // An episode names its series' feed beside the site's.
    feeds: series ? [seriesFeedLink(series)] : undefined,
  });
}

/** The series around a post: its place and the previous and next instalments. */
async function seriesNavigation(post: Post) {
  if (!post.series) return null;
  // The numbers and neighbours only: no body is read for a reading time.
  const items = await listSeriesEpisodes(post.series.id, false);
  const index = items.findIndex((p) => p.id === post.id);
  return {
    id: post.series.id,
    title: post.series.title,
    position: index >= 0 ? index + 1 : null,
    total: items.length,
    previous: index > 0 ? items[index - 1] : undefined,
    next: index >= 0 ? items[index + 1] : undefined,
  };
}

/** The editor's related posts, else the newest of the same feature. */
async function relatedPosts(post: Post): Promise<PostCard[]> {
  const chosen = post.relatedPosts.map((p) => p.id).slice(0, 3);
  if (chosen.length > 0) {
    const { items } = await listPosts({ ids: chosen, size: chosen.length });
    return chosen.flatMap((id) => items.filter((p) => p.id === id));
  }
  if (!post.category) return [];
  const { items } = await listPosts({ category: post.category.id, size: 4 });
  return items.filter((p) => p.id !== post.id).slice(0, 3);
}

export default async function PostPage({ params, searchParams }: PostPageProps) {
  // Only what the access policy gives leaves the server: the body, or its lead.
  const gift = await giftTokenIn(searchParams);
  const shown = await readShownOr404((id) => readPost(id, gift), params);
  const post = shown.item;
  const [series, related] = await Promise.all([seriesNavigation(post), relatedPosts(post)]);
  const body = post.body ?? '';
  const path = `/posts/${post.id}`;
  // For a reader without access `body` is the lead: its headings are all the table of contents
  // lists, and the rest is only the policy's count of what was cut (gatedChars).
  const rendered = richBody(body);
  const characters = bodyCharacters(post) + (shown.full ? 0 : (shown.gatedChars ?? 0));

  return (
    <article className={styles.article}>
      <DoneNotice />
      {shown.preview ? <PreviewBanner visitor={shown.visitorView} /> : null}
      {shown.full && shown.gift && gift ? (
        <GiftBanner
          gift={shown.gift}
          token={gift}
          signedIn={shown.viewer.kind !== 'anonymous'}
          returnTo={path}
        />
      ) : null}
      {shown.preview ? null : (
        <JsonLd
          data={contentItemJsonLd(jsonLdSite(), 'posts', post, {
            section: post.category?.name,
            keywords: post.tags.map((t) => t.name),
          })}
        />
      )}
      <ItemHeader
        kicker={post.category?.name}
        title={post.title}
        date={post.publishedAt ?? post.updatedAt}
        byline={<AuthorLinks writers={post.writers} />}
        description={post.description}
        access={shown.access}
        readingTime={characters > 0 ? readingTimeLabel(characters) : null}
        extra={
          series?.position ? (
            <span>
              <Link href={seriesPath(series.id)}>連載「{series.title}」</Link>第{series.position}回
            </span>
          ) : null
        }
      />
      <div className={styles.actions}>
        <BookmarkButton endpoint="posts" contentId={post.id} title={post.title} />
      </div>
      {shown.full && shown.metered && shown.meter?.left !== undefined ? (
        // Near the top, above the cover: how many more this month (decision 055).
        <div className={styles.meterNote}>
          <MeterNote meter={{ perMonth: shown.meter.perMonth, left: shown.meter.left }} />
        </div>
      ) : null}
      <ItemCover
        image={post.coverImage ? { ...post.coverImage, alt: post.coverImage.alt ?? '' } : undefined}
      />

      <div className={styles.columns}>
        <TableOfContents headings={rendered.headings} />
        <div className={styles.body}>
          {shown.full ? (
            <>
              {shown.freePlan ? <FreePlanNote /> : null}
              <div className={post.isPublicPreview ? undefined : PAYWALLED_CLASS}>
                <RichText body={rendered} />
              </div>
              {shown.gift ? <GiftInvitation returnTo={path} /> : null}
              {shown.metered ? (
                <PlanInvitation
                  returnTo={path}
                  members
                  text="この記事は、無料会員が毎月読める会員限定記事のひとつとしてお読みいただきました。有料プランに登録すると、本数を気にせずすべての記事を全文お読みいただけます。"
                />
              ) : null}
            </>
          ) : (
            <>
              {shown.giftRefused ? <GiftRefusedNote /> : null}
              <PaywalledLead
                body={rendered}
                shown={shown}
                item="post"
                returnTo={path}
                contentId={post.id}
              />
            </>
          )}

          {post.tags.length > 0 ? (
            <ul className={styles.tags} aria-label="タグ">
              {post.tags.map((tag) => (
                <li key={tag.id}>
                  <Link href={`/posts?tag=${tag.id}`}>#{tag.name}</Link>
                </li>
              ))}
            </ul>
          ) : null}

          <ShareLinks url={`${env().SITE_URL}${path}`} title={post.title} />
          {mayGift(shown.viewer, post) ? <GiftLink contentId={post.id} /> : null}
          {/* The same for every reader (the page is cached per audience); not on a preview. */}
          {shown.preview ? null : <TipBlock contentId={post.id} />}
          {/* For those who may read the post: the page is cached per audience with them. */}
          {shown.full && !shown.preview ? (
            <CommentsSection endpoint="posts" contentId={post.id} viewer={shown.viewer} />
          ) : null}

          {series && (series.previous || series.next) ? (
            <nav className={styles.seriesNav} aria-label={`連載「${series.title}」`}>
              {series.previous ? (
                <Link href={`/posts/${series.previous.id}`} rel="prev">
                  <span>前の回</span>
                  {series.previous.title}
                </Link>
              ) : (
                <span />
              )}
              {series.next ? (
                <Link href={`/posts/${series.next.id}`} rel="next">
                  <span>次の回</span>
                  {series.next.title}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </div>
      </div>

      {related.length > 0 ? (
        <Section id="related-heading" title="関連記事">
          <CardGrid items={related.map(postCard)} />
        </Section>
      ) : null}
    </article>
  );
}
