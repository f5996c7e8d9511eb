import { Link } from '@/components/layout/site-link';
import { PhraseText } from '@/components/content/phrase-text';
import { FillCover } from '@/components/content/responsive-image';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { Category } from '@/server/features/content/lists';
import { issueDate, issueNumberLabel } from './issue';
import styles from './feature.module.css';

/**
 * The top of a feature issue's page, as an issue's opening spread: the number and date, the
 * theme as the page's title, the lead text, how many articles it holds, and its cover.
 */
export function IssueMasthead({ issue, articleCount }: { issue: Category; articleCount: number }) {
  const number = issueNumberLabel(issue);
  const date = issueDate(issue);
  return (
    <header className={styles.masthead}>
      <div className={styles.mastheadText}>
        <p className={styles.mastheadKicker}>
          <Link href="/feature">特集</Link>
          {number ? <span className={styles.issueNumber}>{number}</span> : null}
        </p>
        <h1 className={styles.mastheadTitle}>
          <PhraseText text={issue.name} />
        </h1>
        {issue.description ? <p className={styles.mastheadLead}>{issue.description}</p> : null}
        <p className={styles.mastheadMeta}>
          <time dateTime={isoDateJa(date)}>{formatDateJa(date)}</time>
          {articleCount > 0 ? <span>{articleCount}本の記事</span> : null}
        </p>
      </div>
      <div className={styles.mastheadCover}>
        <FillCover
          image={issue.coverImage}
          sizes="(min-width: 72rem) 34rem, (min-width: 60rem) 45vw, 100vw"
          priority
        />
      </div>
    </header>
  );
}
