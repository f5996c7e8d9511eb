import { Link } from '@/components/layout/site-link';
import { AccessBadge } from '@/components/content/access-badge';
import { PhraseText } from '@/components/content/phrase-text';
import { FillCover } from '@/components/content/responsive-image';
import { accessLevelOf } from '@/lib/access/access-label';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { Category, PostCard } from '@/server/features/content/lists';
import { issueDate, issueNumberLabel } from './issue';
import styles from './feature.module.css';

/** A feature issue with the article it opens with (its newest), when it has one. */
export type IssueWithLead = { issue: Category; lead: PostCard | null };

/**
 * The current issue at the top of /feature: the cover large, then the number, theme, lead text
 * and date, and the issue's lead article, as a magazine's contents page opens.
 */
export function CurrentIssue({ issue, lead }: IssueWithLead) {
  return <IssueArticle issue={issue} lead={lead} current />;
}

/** Back issues: one row each, the cover small beside the issue's masthead. */
export function IssueList({ issues }: { issues: readonly IssueWithLead[] }) {
  return (
    <ul className={styles.issues}>
      {issues.map(({ issue, lead }) => (
        <li key={issue.id}>
          <IssueArticle issue={issue} lead={lead} />
        </li>
      ))}
    </ul>
  );
}

const CURRENT_LOOK = {
  article: styles.current,
  body: styles.currentBody,
  theme: styles.currentTheme,
  lead: styles.currentLead,
};

const BACK_LOOK = {
  article: styles.issue,
  body: styles.issueBody,
  theme: styles.issueTheme,
  lead: styles.issueLead,
};

/** One issue, current or back: the same parts, the current one larger, its theme the page's h2. */
function IssueArticle({ issue, lead, current = false }: IssueWithLead & { current?: boolean }) {
  const href = `/feature/${issue.id}`;
  const look = current ? CURRENT_LOOK : BACK_LOOK;
  const Theme = current ? 'h2' : 'h3';
  return (
    <article className={look.article} aria-labelledby={`issue-${issue.id}`}>
      <IssueCover issue={issue} href={href} priority={current} />
      <div className={look.body}>
        <IssueLine issue={issue} current={current} />
        <Theme id={`issue-${issue.id}`} className={look.theme}>
          <Link href={href}>
            <PhraseText text={issue.name} />
          </Link>
        </Theme>
        {issue.description ? <p className={look.lead}>{issue.description}</p> : null}
        <LeadArticle lead={lead} />
        {current ? (
          <Link href={href} className={styles.readIssue}>
            この特集を読む<span aria-hidden="true"> →</span>
          </Link>
        ) : null}
      </div>
    </article>
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
