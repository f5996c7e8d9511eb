import { notFound } from 'next/navigation';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { ItemCover, ItemHeader, byline } from '@/components/content/item-header';
import { Paywall } from '@/components/content/paywall';
import { RichText } from '@/components/content/rich-text';
import styles from '@/components/content/article.module.css';
import { jsonLdSite, sitePageMetadata } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { breadcrumbJsonLd, podcastEpisodeJsonLd } from '@/lib/json-ld';
import { AudioPlayer } from '@/components/media/audio-player.client';
import { formatDurationJa } from '@/lib/format';
import { playableUrl } from '@/server/access/media-url';
import { readAudio } from '@/server/access/read';

type Props = { params: Promise<{ contentId: string }> };

export async function generateMetadata({ params }: Props) {
  const audio = (await readAudio((await params).contentId))?.item;
  if (!audio) return { title: 'ページが見つかりません', robots: { index: false } };
  return sitePageMetadata({
    title: audio.title,
    description: audio.description,
    path: `/audios/${audio.id}`,
    image: audio.coverImage ?? null,
  });
}

/** An audio episode: the page is public; the file and the transcript past its lead are not. */
export default async function AudioPage({ params }: Props) {
  // Only what the access policy gives leaves the server: the file and transcript, or its lead.
  const shown = await readAudio((await params).contentId);
  if (!shown) notFound();
  const audio = shown.item;
  const transcript = audio.transcript ?? '';
  const site = jsonLdSite();
  const path = `/audios/${audio.id}`;
  return (
    <article className={styles.article}>
      <JsonLd
        data={[
          podcastEpisodeJsonLd(site, {
            path,
            name: audio.title,
            description: audio.description,
            images: audio.coverImage ? [audio.coverImage] : [],
            datePublished: audio.publishedAt ?? audio.createdAt,
            dateModified: audio.revisedAt ?? audio.updatedAt,
            duration: audio.duration,
            authors: audio.writers.map((w) => ({ name: w.name })),
            isAccessibleForFree: audio.isPublicPreview,
          }),
          breadcrumbJsonLd(site, [
            { name: 'ホーム', path: '/' },
            { name: audio.title, path },
          ]),
        ]}
      />
      <ItemHeader
        kicker="音声"
        title={audio.title}
        date={audio.publishedAt ?? audio.createdAt}
        byline={byline(audio.writers)}
        description={audio.description}
        extra={audio.duration ? <span>再生時間 {formatDurationJa(audio.duration)}</span> : null}
      />
      <div className={styles.actions}>
        <BookmarkButton endpoint="audios" contentId={audio.id} title={audio.title} />
      </div>
      <ItemCover image={audio.coverImage} />
      <div className={styles.body}>
        {shown.full && shown.item.audioFile ? (
          <AudioPlayer src={playableUrl(shown.item.audioFile.url)} title={audio.title} />
        ) : !shown.full ? (
          <Paywall
            reason={shown.cta}
            returnTo={`/audios/${audio.id}`}
            heading="この音声は有料会員限定です"
            signUpText="会員登録のうえ有料プランにお申し込みいただくと、すべての音声をお聴きいただけます。"
            subscribeText="有料プランに登録すると、すべての音声と書き起こしをお楽しみいただけます。"
          />
        ) : null}
        {transcript ? (
          <section aria-labelledby="transcript-heading">
            <h2 id="transcript-heading">書き起こし</h2>
            <RichText html={transcript} className={shown.full ? undefined : styles.lead} />
          </section>
        ) : null}
      </div>
    </article>
  );
}
