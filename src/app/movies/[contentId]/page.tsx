import '@/styles/base';
import '@/styles/item';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { AuthorLinks } from '@/components/content/author-links';
import { CoverImage, ItemHeader } from '@/components/content/item-header';
import { Paywall } from '@/components/content/paywall';
import styles from '@/components/content/article.module.css';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { contentItemJsonLd } from '@/lib/json-ld/content-item';
import { ResponsiveImage } from '@/components/content/responsive-image';
import { EmbedPlayer } from '@/components/media/embed-player.client';
import media from '@/components/media/media.module.css';
import { formatDurationJa } from '@/lib/format';
import { playableUrl } from '@/server/features/access/media-url';
import { readMovie } from '@/server/features/access/read';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { itemMetadataOf, readShownOr404 } from '@/components/content/item-page';
import { DoneNotice } from '@/components/ui/done-notice';
import { CommentsSection } from '@/components/comments/comments-section';

export async function generateMetadata({ params }: RouteParamsProps<'contentId'>) {
  return itemMetadataOf('movies', readMovie, params);
}

/** A movie: the page is public; the video (file or embed) only for those the policy allows. */
export default async function MoviePage({ params }: RouteParamsProps<'contentId'>) {
  // Only what the access policy gives leaves the server: the file and embed, or neither.
  const shown = await readShownOr404(readMovie, params);
  const movie = shown.item;
  const poster = movie.coverImage?.url;
  const path = `/movies/${movie.id}`;
  return (
    <article className={styles.article}>
      <DoneNotice />
      <JsonLd
        data={contentItemJsonLd(jsonLdSite(), 'movies', movie, {
          duration: movie.duration,
          embedUrl: shown.full ? shown.item.embedUrl : undefined,
        })}
      />
      <ItemHeader
        kicker="動画"
        title={movie.title}
        date={movie.publishedAt ?? movie.createdAt}
        byline={<AuthorLinks writers={movie.writers} role="出演" />}
        description={movie.description}
        extra={movie.duration ? <span>再生時間 {formatDurationJa(movie.duration)}</span> : null}
        access={shown.access}
      />
      <div className={styles.actions}>
        <BookmarkButton endpoint="movies" contentId={movie.id} title={movie.title} />
      </div>
      <div className={media.stage}>
        {shown.full && shown.item.videoFile ? (
          <video
            className={media.video}
            controls
            preload="none"
            poster={poster}
            src={playableUrl(shown.item.videoFile.url)}
          >
            お使いのブラウザでは動画を再生できません。
          </video>
        ) : shown.full && shown.item.embedUrl ? (
          <EmbedPlayer
            src={shown.item.embedUrl}
            title={movie.title}
            poster={
              movie.coverImage ? (
                <ResponsiveImage
                  src={movie.coverImage.url}
                  alt=""
                  fill
                  sizes="(min-width: 72rem) 72rem, 100vw"
                  priority
                />
              ) : undefined
            }
          />
        ) : movie.coverImage ? (
          <CoverImage image={movie.coverImage} />
        ) : null}
      </div>
      <div className={styles.body}>
        {shown.full ? null : (
          <Paywall cta={shown.cta} item="movie" returnTo={path} duration={movie.duration} />
        )}
        {shown.full ? (
          <CommentsSection endpoint="movies" contentId={movie.id} viewer={shown.viewer} />
        ) : null}
      </div>
    </article>
  );
}
