import { Link } from '@/components/layout/site-link';
import biz from '@/components/biz/biz-admin.module.css';
import { ButtonLink } from '@/components/ui/button';
import { formatDateJa, formatNumber } from '@/lib/format';
import { BizListSection } from '@/components/biz/biz-section';
import type { Counts, EditorJobRow, ListingRow } from './dashboard-model';
import styles from './partner-admin.module.css';

/**
 * 求人: the partner's own listings (draft, in review, returned, published, closed) with what
 * it may do with each, then the jobs the editors placed for it, read-only. Views and apply
 * clicks once a listing has been on /jobs.
 */

const day = (iso: string) => formatDateJa(iso.length === 10 ? `${iso}T12:00:00+09:00` : iso);

const BADGE_LOOK: Record<ListingRow['state'], string> = {
  draft: biz.badgeMuted ?? '',
  in_review: '',
  returned: styles.badgeReturned ?? '',
  published: biz.badgeStrong ?? '',
  closed: biz.badgeMuted ?? '',
};

const newListing = (
  <ButtonLink href="/jobs/post" color="yellow" width="auto" className={styles.newButton}>
    新しい求人を作成
  </ButtonLink>
);

/** A link whose name says which listing it is for (several 「編集」 on one page). */
function RowLink({ href, label, title }: { href: string; label: string; title: string }) {
  return (
    <Link href={href} prefetch={false}>
      {label}
      <span className="visually-hidden">：{title}</span>
    </Link>
  );
}

/** A dated fact of a card: the day, or `none` where there is no date yet. */
function DayFact({ term, iso, none }: { term: string; iso: string | null; none: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{iso ? <time dateTime={iso}>{day(iso)}</time> : none}</dd>
    </div>
  );
}

function CountFacts({ counts }: { counts: Counts | null }) {
  return (
    <>
      <div>
        <dt>閲覧数</dt>
        <dd className={styles.number}>{counts ? formatNumber(counts.views) : '—'}</dd>
      </div>
      <div>
        <dt>応募クリック数</dt>
        <dd className={styles.number}>{counts ? formatNumber(counts.clicks) : '—'}</dd>
      </div>
    </>
  );
}

function ListingCard({ row, canWrite }: { row: ListingRow; canWrite: boolean }) {
  const titleId = `listing-${row.id}`;
  return (
    <li>
      <article className={biz.card} aria-labelledby={titleId}>
        <div className={biz.cardHeader}>
          <span className={`${biz.badge} ${BADGE_LOOK[row.state]}`}>{row.stateLabel}</span>
          <h3 id={titleId} className={biz.cardTitle}>
            {row.title}
          </h3>
        </div>
        {row.liveWhileChanging ? (
          <p className={styles.hint}>公開中の内容は、変更が承認されるまでそのまま掲載されます。</p>
        ) : null}
        {row.reviewComment ? (
          <div className={styles.comment}>
            <p className={styles.commentTitle}>担当者からのコメント</p>
            <p className={styles.commentText}>{row.reviewComment}</p>
          </div>
        ) : null}
        <dl className={styles.facts}>
          <DayFact term="更新日" iso={row.updatedAt.toISOString()} none="—" />
          <DayFact term="募集締切" iso={row.closingDate} none="未設定" />
          <CountFacts counts={row.counts} />
        </dl>
        {row.counts === null ? (
          <p className={styles.hint}>閲覧数と応募クリック数は、公開後に集計されます。</p>
        ) : null}
        <ul className={biz.actionLinks}>
          {canWrite ? (
            <li>
              <RowLink href={`/jobs/post?listing=${row.id}`} label="編集" title={row.title} />
            </li>
          ) : null}
          <li>
            <RowLink href={`/jobs/preview/${row.id}`} label="プレビュー" title={row.title} />
          </li>
          {row.live ? (
            <li>
              <RowLink href={`/jobs/${row.id}`} label="求人ページ" title={row.title} />
            </li>
          ) : null}
        </ul>
      </article>
    </li>
  );
}

function EditorJobCard({ row }: { row: EditorJobRow }) {
  const titleId = `editor-job-${row.id}`;
  return (
    <li>
      <article className={biz.card} aria-labelledby={titleId}>
        <div className={biz.cardHeader}>
          <span className={`${biz.badge} ${row.closed ? biz.badgeMuted : biz.badgeStrong}`}>
            {row.closed ? '募集終了' : '公開中'}
          </span>
          <h4 id={titleId} className={biz.cardTitle}>
            {row.title}
          </h4>
        </div>
        <dl className={styles.facts}>
          <DayFact term="掲載日" iso={row.publishedAt} none="—" />
          <DayFact term="募集締切" iso={row.closingDate} none="未設定" />
          <CountFacts counts={row.counts} />
        </dl>
        <ul className={biz.actionLinks}>
          <li>
            <RowLink href={`/jobs/${row.id}`} label="求人ページ" title={row.title} />
          </li>
        </ul>
      </article>
    </li>
  );
}

export function ListingsSection({
  listings,
  editorJobs,
  canWrite,
}: {
  listings: ListingRow[];
  editorJobs: EditorJobRow[];
  /** A member of the partner (staff review listings; they do not write them). */
  canWrite: boolean;
}) {
  return (
    <BizListSection
      id="listings"
      title="求人"
      items={listings}
      unit="件"
      action={canWrite && listings.length > 0 ? newListing : null}
      empty={
        <>
          <p>まだ求人はありません。</p>
          {canWrite ? (
            <>
              <p>
                求人を作成して審査に出すと、担当者の確認のあと求人一覧に掲載されます。下書きは何度でも保存できます。
              </p>
              {newListing}
            </>
          ) : null}
        </>
      }
      emptyAs="div"
      classes={{ empty: styles.emptyState }}
      footer={
        editorJobs.length > 0 ? (
          <section className={styles.subsection} aria-labelledby="editor-jobs-title">
            <h3 id="editor-jobs-title" className={biz.subTitle}>
              編集部が掲載した求人
              <span className={biz.count}>{editorJobs.length}件</span>
            </h3>
            <p className={styles.hint}>
              編集部が掲載した求人です。内容の変更は担当者にご連絡ください。
            </p>
            <ul className={biz.cards}>
              {editorJobs.map((row) => (
                <EditorJobCard key={row.id} row={row} />
              ))}
            </ul>
          </section>
        ) : null
      }
    >
      <ul className={biz.cards}>
        {listings.map((row) => (
          <ListingCard key={row.id} row={row} canWrite={canWrite} />
        ))}
      </ul>
    </BizListSection>
  );
}
