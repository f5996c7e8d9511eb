import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { AccessBadge } from '@/components/content/access-badge';
import { FillCover } from '@/components/content/responsive-image';
import { PhraseText } from '@/components/content/phrase-text';
import type { AccessLevel } from '@/lib/access/access-label';
import type { BookmarkRef } from '@/lib/bookmarks';
import { formatDateJa, isoDateJa } from '@/lib/format';
import styles from './listing.module.css';

export type CardItem = {
  href: string;
  title: string;
  /** A small label above the title: the category, the type, the issue number. */
  kicker?: string | null;
  date?: string | null;
  image?: { url: string; alt?: string } | null;
  /** A line under the title: writers, a company, a duration. */
  meta?: string | null;
  description?: string | null;
  /** 「約5分」: a post's reading time (src/lib/reading-time.ts), beside its date. */
  readingTime?: string | null;
  /** Who may read it (無料公開, 会員限定, 有料会員限定), so readers know before they click. */
  access?: AccessLevel;
  /** Readers may bookmark it from the list. */
  bookmark?: BookmarkRef;
};

/**
 * A card of a list: fixed 16:9 cover (no layout shift), kicker, title (broken only between
 * phrases), meta, date and reading time.
 */
export function ContentCard({
  item,
  headingLevel = 3,
  priority = false,
  action,
}: {
  item: CardItem;
  headingLevel?: 2 | 3;
  priority?: boolean;
  /** A control beside the card (the bookmark button), outside the link. */
  action?: ReactNode;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className={styles.card}>
      <Link href={item.href} className={styles.cardLink}>
        <div className={styles.cardImage}>
          <FillCover
            image={item.image}
            sizes="(min-width: 72rem) 22rem, (min-width: 40rem) 45vw, 100vw"
            priority={priority}
          />
        </div>
        <div className={styles.cardBody}>
          {item.kicker || item.access ? (
            <p className={styles.cardKicker}>
              {item.kicker ? <span>{item.kicker}</span> : null}
              {item.access ? <AccessBadge level={item.access} /> : null}
            </p>
          ) : null}
          <Heading className={styles.cardTitle}>
            <PhraseText text={item.title} />
          </Heading>
          {item.description ? <p className={styles.cardText}>{item.description}</p> : null}
          {item.meta ? <p className={styles.cardMeta}>{item.meta}</p> : null}
          {item.date || item.readingTime ? (
            <p className={styles.cardMeta}>
              {item.date ? (
                <time dateTime={isoDateJa(item.date)}>{formatDateJa(item.date)}</time>
              ) : null}
              {item.readingTime ? (
                <span className={styles.cardReadingTime}>{`読了時間 ${item.readingTime}`}</span>
              ) : null}
            </p>
          ) : null}
        </div>
      </Link>
      {action || item.bookmark ? (
        <div className={styles.cardAction}>
          {action ??
            (item.bookmark ? (
              <BookmarkButton
                endpoint={item.bookmark.endpoint}
                contentId={item.bookmark.contentId}
                title={item.title}
                variant="icon"
              />
            ) : null)}
        </div>
      ) : null}
    </article>
  );
}

export function CardGrid({
  items,
  headingLevel = 3,
  firstPriority = false,
  actionFor,
}: {
  items: CardItem[];
  headingLevel?: 2 | 3;
  firstPriority?: boolean;
  actionFor?: (item: CardItem) => ReactNode;
}) {
  return (
    <ul className={styles.grid}>
      {items.map((item, i) => (
        <li key={item.href}>
          <ContentCard
            item={item}
            headingLevel={headingLevel}
            priority={firstPriority && i < 2}
            action={actionFor?.(item)}
          />
        </li>
      ))}
    </ul>
  );
}
