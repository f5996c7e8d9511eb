import Link from 'next/link';
import { AccessBadge } from '@/components/content/access-badge';
import { PhraseText } from '@/components/content/phrase-text';
import { FillCover } from '@/components/content/responsive-image';
import { accessLevelOf } from '@/lib/access/access-label';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { Category, PostCard } from '@/server/content/lists';
import { issueDate, issueNumberLabel } from './issue';
import styles from './feature.module.css';

/** A feature issue with the article it opens with (its newest), when it has one. */
export type IssueWithLead = { issue: Category; lead: PostCard | null };

/**
 * The current issue at the top of /feature: the cover large, then the number, theme, lead text
 * and date, and the issue's lead article, as a magazine's contents page opens.
 */
export function CurrentIssue({ issue, lead }: IssueWithLead) {
  const href = `/feature/${issue.id}`;
  return (
    <article className={styles.current} aria-labelledby={`issue-${issue.id}`}>
      <IssueCover issue={issue} href={href} priority />
      <div className={styles.currentBody}>
        <IssueLine issue={issue} current />
        <h2 id={`issue-${issue.id}`} className={styles.currentTheme}>
          <Link href={href}>
            <PhraseText text={issue.name} />
          </Link>
        </h2>
        {issue.description ? <p className={styles.currentLead}>{issue.description}</p> : null}
        <LeadArticle lead={lead} />
        <Link href={href} className={styles.readIssue}>
          この特集を読む<span aria-hidden="true"> →</span>
        </Link>
      </div>
    </article>
  );
}

/** Back issues: one row each, the cover small beside the issue's masthead. */
export function IssueList({ issues }: { issues: readonly IssueWithLead[] }) {
  return (
    <ul className={styles.issues}>
      {issues.map(({ issue, lead }) => {
        const href = `/feature/${issue.id}`;
        return (
          <li key={issue.id}>
            <article className={styles.issue} aria-labelledby={`issue-${issue.id}`}>
              <IssueCover issue={issue} href={href} />
              <div className={styles.issueBody}>
                <IssueLine issue={issue} />
                <h3 id={`issue-${issue.id}`} className={styles.issueTheme}>
                  <Link href={href}>
                    <PhraseText text={issue.name} />
                  </Link>
                </h3>
                {issue.description ? <p className={styles.issueLead}>{issue.description}</p> : null}
                <LeadArticle lead={lead} />
              </div>
            </article>
          </li>
        );
      })}
    </ul>
  );
}

/** No.106 · 最新号 · the date. */
function IssueLine({ issue, current = false }: { issue: Category; current?: boolean }) {
  const number = issueNumberLabel(issue);
  const date = issueDate(issue);
  return (
    <p className={styles.issueLine}>
      {number ? <span className={styles.issueNumber}>{number}</span> : null}
      {current ? <span className={styles.currentMark}>最新号</span> : null}
      <time dateTime={isoDateJa(date)}>{formatDateJa(date)}</time>
    </p>
  );
}

/** The cover links to the issue for pointers; the theme's link serves keyboards and screen readers. */
function IssueCover({
  issue,
  href,
  priority = false,
}: {
  issue: Category;
  href: string;
  priority?: boolean;
}) {
  return (
    <Link href={href} className={styles.cover} tabIndex={-1} aria-hidden="true">
      <FillCover
        image={issue.coverImage}
        alt=""
        sizes={
          priority
            ? '(min-width: 72rem) 40rem, (min-width: 60rem) 55vw, 100vw'
            : '(min-width: 40rem) 16rem, 100vw'
        }
        priority={priority}
      />
    </Link>
  );
}

function LeadArticle({ lead }: { lead: PostCard | null }) {
  if (!lead) return null;
  const writers = lead.writers.map((w) => w.name).join('、');
  return (
    <p className={styles.leadArticle}>
      <span className={styles.leadLabel}>巻頭記事</span>
      <Link href={`/posts/${lead.id}`} className={styles.leadArticleLink}>
        {lead.title}
      </Link>
      {/* Who may read it, in the cards' words (docs/decisions/022-access-vocabulary.md). */}
      <span className={styles.leadAccess}>
        <AccessBadge level={accessLevelOf({ type: 'posts', ...lead })} />
      </span>
      {writers ? <span className={styles.leadWriters}>文・{writers}</span> : null}
    </p>
  );
}
