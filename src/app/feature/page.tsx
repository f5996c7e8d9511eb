import '@/styles/base';
import { currentIssue } from '@/components/feature/issue';
import { CurrentIssue, type IssueWithLead, IssueList } from '@/components/feature/issue-list';
import styles from '@/components/feature/feature.module.css';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { type SearchParams, pageParam } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { type Category, listCategories, listPosts } from '@/server/features/content/lists';

// Content is read per request (the build never opens the database).
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: '特集',
  description: 'ひとつのテーマを多角的に掘り下げる特集号。',
  path: '/feature',
});

/** Back issues per page: each reads its lead article, so a page stays a few small reads. */
const BACK_ISSUES_PER_PAGE = 12;

/** An issue's lead article: its newest post (the first of its page). */
async function withLead(issue: Category): Promise<IssueWithLead> {
  const posts = await listPosts({ category: issue.id, size: 1 });
  return { issue, lead: posts.items[0] ?? null };
}

export default async function FeaturePage({ searchParams }: { searchParams: SearchParams }) {
  const requested = pageParam((await searchParams).page);
  const issues = await listCategories();
  const current = currentIssue(issues);
  const back = issues.filter((issue) => issue !== current);
  const totalPages = Math.max(1, Math.ceil(back.length / BACK_ISSUES_PER_PAGE));
  const page = Math.min(requested, totalPages);
  const shown = back.slice((page - 1) * BACK_ISSUES_PER_PAGE, page * BACK_ISSUES_PER_PAGE);
  const [currentWithLead, backWithLeads] = await Promise.all([
    current && page === 1 ? withLead(current) : null,
    Promise.all(shown.map(withLead)),
  ]);
  return (
    <ListPage title="特集" lead={<p>ひとつのテーマを多角的に掘り下げる特集号。</p>}>
      {!current ? (
        <EmptyState>特集はまだありません。</EmptyState>
      ) : (
        <>
          {currentWithLead ? <CurrentIssue {...currentWithLead} /> : null}
          {backWithLeads.length > 0 ? (
            <section aria-labelledby="back-issues-heading">
              <h2 id="back-issues-heading" className={styles.backTitle}>
                バックナンバー
              </h2>
              <IssueList issues={backWithLeads} />
            </section>
          ) : null}
          <Pagination basePath="/feature" page={page} totalPages={totalPages} />
        </>
      )}
    </ListPage>
  );
}
