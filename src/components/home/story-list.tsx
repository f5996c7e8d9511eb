import { Link } from '@/components/layout/site-link';
import { FillCover } from '@/components/content/responsive-image';
import type { CardItem } from '@/components/listing/content-card';
import { Byline, Kicker } from './lead-story';
import styles from './stories.module.css';
import { PhraseText } from '@/components/content/phrase-text';

/**
 * A compact list of stories. `rows`: a small cover beside the text at every width (the side
 * columns of a front page). `cards`: rows on a phone, where height is precious, and covers
 * above the text in `columns` columns from tablet width (48rem) up.
 */
export function StoryList({
  items,
  layout = 'rows',
  columns = 3,
  headingLevel = 3,
}: {
  items: readonly CardItem[];
  layout?: 'rows' | 'cards';
  columns?: 3 | 4;
  headingLevel?: 3 | 4;
}) {
  const Heading = `h${headingLevel}` as const;
  const listClass =
    layout === 'cards'
      ? `${styles.list} ${styles.cards} ${columns === 4 ? styles.cols4 : styles.cols3}`
      : `${styles.list} ${styles.rows}`;
  return (
    <ul className={listClass}>
      {items.map((item) => (
        <li key={item.href}>
          <article className={styles.story}>
            <Link href={item.href} className={styles.storyLink}>
              <div className={styles.thumb}>
                <FillCover
                  image={item.image}
                  sizes={
                    layout === 'cards'
                      ? '(min-width: 72rem) 17rem, (min-width: 48rem) 30vw, 6rem'
                      : '(min-width: 60rem) 8rem, 6rem'
                  }
                />
              </div>
              <div className={styles.storyBody}>
                <Kicker item={item} />
                <Heading className={styles.storyTitle}>
                  <PhraseText text={item.title} />
                </Heading>
                <Byline item={item} />
              </div>
            </Link>
          </article>
        </li>
      ))}
    </ul>
  );
}
