import '@/styles/base';
import '@/styles/item';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { AccessBadge } from '@/components/content/access-badge';
import { AuthorLinks } from '@/components/content/author-links';
import { CoverImage } from '@/components/content/item-header';
import { Paywall } from '@/components/content/paywall';
import { PhraseText } from '@/components/content/phrase-text';
import { RichText } from '@/components/content/rich-text';
import styles from '@/components/content/article.module.css';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { contentItemJsonLd } from '@/lib/json-ld/content-item';
import { AudioPlayer } from '@/components/media/audio-player.client';
import { formatDateJa, formatDurationJa, isoDateJa } from '@/lib/format';
import { playableUrl } from '@/server/features/access/media-url';
import { readAudio } from '@/server/features/access/read';
import episode from './episode.module.css';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { itemMetadataOf, readShownOr404 } from '@/components/content/item-page';
import { DoneNotice } from '@/components/ui/done-notice';
import { CommentsSection } from '@/components/comments/comments-section';

export async function generateMetadata({ params }: RouteParamsProps<'contentId'>) {
  return itemMetadataOf('audios', readAudio, params);
}

/**
 * An audio episode: the page is public; the file and the transcript past its lead are not.
 * The player (or, for a reader without access, the paywall) comes right under the title, so
 * it is on the first screen of a phone; the description and the transcript follow.
 */
export default async function AudioPage({ params }: RouteParamsProps<'contentId'>) {
  // Only what the access policy gives leaves the server: the file and transcript, or its lead.
  const shown = await readShownOr404(readAudio, params);
  const audio = shown.item;
  const transcript = audio.transcript ?? '';
  const path = `/audios/${audio.id}`;
  const date = audio.publishedAt ?? audio.createdAt;
  return (
    <article className={styles.article}>
      <DoneNotice />
      <JsonLd
        data={contentItemJsonLd(jsonLdSite(), 'audios', audio, { duration: audio.duration })}
      />
      <div className={episode.hero}>
        <header className={episode.head}>
          <p className={episode.kickers}>
            <span className={styles.kicker}>音声</span>
            <AccessBadge level={shown.access} />
          </p>
          <h1 className={episode.title}>
            <PhraseText text={audio.title} />
          </h1>
          <p className={episode.meta}>
            <time dateTime={isoDateJa(date)}>{formatDateJa(date)}</time>
            {audio.duration ? <span>再生時間 {formatDurationJa(audio.duration)}</span> : null}
            {/* Who speaks in an episode: its writers are the host and the guests. */}
            <AuthorLinks writers={audio.writers} role="出演" />
          </p>
          <div className={episode.actions}>
            <BookmarkButton endpoint="audios" contentId={audio.id} title={audio.title} />
          </div>
        </header>
        <div className={episode.stage}>
          {shown.full ? (
            shown.item.audioFile ? (
              <AudioPlayer
                src={playableUrl(shown.item.audioFile.url)}
                title={audio.title}
                duration={audio.duration}
              />
            ) : (
              <p className={episode.pending}>この回の音声は準備中です。</p>
            )
          ) : (
            <Paywall
              cta={shown.cta}
              item="audio"
              returnTo={path}
              gatedChars={shown.gatedChars}
              duration={audio.duration}
            />
          )}
        </div>
        {audio.coverImage ? (
          <figure className={episode.cover}>
            <CoverImage
              image={audio.coverImage}
              sizes="(min-width: 72rem) 30rem, (min-width: 60rem) 40vw, (min-width: 42rem) 42rem, 100vw"
            />
          </figure>
        ) : null}
      </div>
      <div className={styles.body}>
        {audio.description ? <p className={episode.description}>{audio.description}</p> : null}
        {transcript ? (
          <section aria-labelledby="transcript-heading" className={episode.transcript}>
            <h2 id="transcript-heading">書き起こし</h2>
            {/* Without full access, the transcript's lead, shown whole as a post's is. */}
            <RichText html={transcript} />
          </section>
        ) : null}
        {shown.full ? (
          <CommentsSection endpoint="audios" contentId={audio.id} viewer={shown.viewer} />
        ) : null}
      </div>
    </article>
  );
}
