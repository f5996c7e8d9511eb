import { Link } from '@/components/layout/site-link';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { AccessBadge } from '@/components/content/access-badge';
import { PhraseText } from '@/components/content/phrase-text';
import { FillCover } from '@/components/content/responsive-image';
import type { CardItem } from '@/components/listing/content-card';
import { formatDateJa, isoDateJa } from '@/lib/format';
import styles from './stories.module.css';

/**
 * The one large story a page leads with (the home page, a feature issue): a wide cover, the
 * kicker, the title broken at phrases, the dek, the byline and the date. The title's link
 * covers the whole story, so the bookmark button beside it stays a separate control.
 */
export function LeadStory({
  item,
  dek,
  headingLevel = 2,
  priority = true,
}: {
  item: CardItem;
  /** The standfirst under the title: the item's description. */
  dek?: string | null;
  headingLevel?: 2 | 3;
  priority?: boolean;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className={styles.lead}>
      <div className={styles.leadImage}>
        <FillCover
          image={item.image}
          sizes="(min-width: 72rem) 42rem, (min-width: 48rem) 58vw, 100vw"
          priority={priority}
        />
        {/* Where every card keeps it: an icon over the cover's top right. */}
        {item.bookmark ? (
          <div className={styles.leadAction}>
            <BookmarkButton
              endpoint={item.bookmark.endpoint}
              contentId={item.bookmark.contentId}
              title={item.title}
              variant="icon"
            />
          </div>
        ) : null}
      </div>
      <div className={styles.leadBody}>
        <Kicker item={item} />
        <Heading className={styles.leadTitle}>
          <Link href={item.href} className={styles.leadLink}>
            <PhraseText text={item.title} />
          </Link>
        </Heading>
        {dek ? <p className={styles.leadDek}>{dek}</p> : null}
        <div className={styles.leadFoot}>
          <Byline item={item} />
        </div>
      </div>
    </article>
  );
}

/** The label line: category or type, and what the reader may read of it (the cards' marks). */
export function Kicker({ item }: { item: CardItem }) {
  if (!item.kicker && !item.access) return null;
  return (
    <p className={styles.kicker}>
      {item.kicker ? <span>{item.kicker}</span> : null}
      {item.access ? <AccessBadge level={item.access} /> : null}
    </p>
  );
}

/** Writers (or company) and date on one line, so a compact item stays three lines high. */
export function Byline({ item }: { item: CardItem }) {
  if (!item.meta && !item.date) return null;
  return (
    <p className={styles.byline}>
      {item.meta ? <span>{item.meta}</span> : null}
      {item.date ? <time dateTime={isoDateJa(item.date)}>{formatDateJa(item.date)}</time> : null}
    </p>
  );
}
