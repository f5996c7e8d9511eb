import { Link } from '@/components/layout/site-link';
import { PhraseText } from '@/components/content/phrase-text';
import { FillCover } from '@/components/content/responsive-image';
import { issueDate, issueNumberLabel } from '@/components/feature/issue';
import type { CardItem } from '@/components/listing/content-card';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { Category } from '@/server/features/content/lists';
import { Byline } from './lead-story';
import issueStyles from '@/components/feature/feature.module.css';
import styles from './home.module.css';

/**
 * The current feature issue on the front page, as a magazine shows its issue: the cover, the
 * number and theme, the lead text, and its contents as a numbered list (titles, no covers, so
 * it stays short on a phone).
 */
export function FeatureSpotlight({
  issue,
  posts,
}: {
  issue: Category;
  posts: readonly CardItem[];
}) {
  const href = `/feature/${issue.id}`;
  const number = issueNumberLabel(issue);
  const date = issueDate(issue);
  return (
    <div className={styles.spotlight}>
      {/* The theme's link below is the one for keyboards and screen readers. */}
      <Link href={href} className={styles.spotlightCover} tabIndex={-1} aria-hidden="true">
        <FillCover
          image={issue.coverImage}
          alt=""
          sizes="(min-width: 72rem) 34rem, (min-width: 48rem) 48vw, 100vw"
        />
      </Link>
      <div className={styles.spotlightBody}>
        <p className={issueStyles.issueLine}>
          {number ? <span className={issueStyles.issueNumber}>{number}</span> : null}
          <time dateTime={isoDateJa(date)}>{formatDateJa(date)}</time>
        </p>
        <h3 className={styles.issueTheme}>
          <Link href={href}>
            <PhraseText text={issue.name} />
          </Link>
        </h3>
        {issue.description ? <p className={styles.issueLead}>{issue.description}</p> : null}
        {posts.length > 0 ? (
          <ol className={styles.contents} aria-label={`${issue.name}の記事`}>
            {posts.map((post) => (
              <li key={post.href}>
                <Link href={post.href} className={styles.contentsLink}>
                  <span className={styles.contentsTitle}>{post.title}</span>
                  <Byline item={{ ...post, date: null }} />
                </Link>
              </li>
            ))}
          </ol>
        ) : null}
        <Link href={href} className={styles.spotlightMore}>
          {number ? `${number}「${issue.name}」を読む` : `特集「${issue.name}」を読む`}
          <span aria-hidden="true"> →</span>
        </Link>
      </div>
    </div>
  );
}
