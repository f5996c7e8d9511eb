import type { ReactNode } from 'react';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { AccessLevel } from '@/lib/access/access-label';
import { AccessBadge } from './access-badge';
import styles from './article.module.css';
import { ResponsiveImage } from './responsive-image';
import { PhraseText } from './phrase-text';

/**
 * The head of a content page: kicker, title broken at phrases, date, byline, reading time (with who may
 * read it: 無料公開, 会員限定 or 有料会員限定, the words of the cards), lead text.
 */
export function ItemHeader({
  kicker,
  title,
  date,
  byline,
  description,
  extra,
  access,
  readingTime,
}: {
  kicker?: string | null;
  title: string;
  date?: string | null;
  /** Who wrote it: the writers' names, linked (src/components/content/author-links.tsx). */
  byline?: ReactNode;
  description?: string | null;
  extra?: ReactNode;
  /** Who may read the item (src/lib/access/access-label.ts). */
  access?: AccessLevel;
  /** 「約5分」: the whole text's reading time (src/lib/reading-time.ts), for every reader. */
  readingTime?: string | null;
}) {
  return (
    <header className={styles.header}>
      {kicker ? <p className={styles.kicker}>{kicker}</p> : null}
      <h1 className={styles.title}>
        <PhraseText text={title} />
      </h1>
      <p className={styles.meta}>
        {date ? <time dateTime={isoDateJa(date)}>{formatDateJa(date)}</time> : null}
        {byline}
        {readingTime ? <span>{`読了時間 ${readingTime}`}</span> : null}
        {extra}
        {access ? <AccessBadge level={access} /> : null}
      </p>
      {description ? <p className={styles.description}>{description}</p> : null}
    </header>
  );
}

/** The cover image of a content page: fixed aspect ratio, loaded first (it is the LCP). */
type Cover = { url: string; alt?: string; width?: number; height?: number };

/** An item's cover image, on the first screen (loaded first); 16:9 where its size is unknown. */
export function CoverImage({
  image,
  sizes = '(min-width: 72rem) 72rem, 100vw',
}: {
  image: Cover;
  sizes?: string;
}) {
  return (
    <ResponsiveImage
      src={image.url}
      alt={image.alt ?? ''}
      width={image.width ?? 1200}
      height={image.height ?? 675}
      sizes={sizes}
      priority
    />
  );
}

export function ItemCover({ image }: { image?: Cover | null }) {
  if (!image) return null;
  return (
    <figure className={styles.cover}>
      <CoverImage image={image} />
    </figure>
  );
}

/** A post's writers: 「文・…」. */
export const byline = (writers: { name: string }[]) =>
  writers.length ? `文・${writers.map((w) => w.name).join('、')}` : null;

/** Who speaks or appears in an audio or a movie (its writers are the cast): 「出演・…」. */
export const castLine = (writers: { name: string }[]) =>
  writers.length ? `出演・${writers.map((w) => w.name).join('、')}` : null;
