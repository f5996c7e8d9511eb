import { Link } from '@/components/layout/site-link';
import styles from '@/components/biz/biz-admin.module.css';
import { BizSection } from '@/components/biz/biz-section';
import { formatDateJa } from '@/lib/format';
import { isClosed } from '@/lib/jobs';
import { TableHead } from '@/components/ui/table-head';

export type EditorPlacedJob = {
  id: string;
  title: string;
  publishedAt: string | null;
  closingDate: string | null;
};

/** Jobs of the partner that editors placed on /jobs themselves: shown, not managed, here. */
export function EditorJobsTable({ jobs, now }: { jobs: EditorPlacedJob[]; now: Date }) {
  if (jobs.length === 0) return null;
  return (
    <BizSection id="editor-jobs" title="編集部が掲載した求人" count={`${jobs.length}件`}>
      <p className={styles.lead}>
        コンテンツ管理から直接掲載された求人です。内容の変更はコンテンツ管理で行ってください。
      </p>
      <table className={styles.table}>
        <TableHead columns={['求人', '公開日', '募集締切', '状態']} />
        <tbody>
          {jobs.map((job) => {
            const closed = isClosed(job.closingDate, now);
            return (
              <tr key={job.id}>
                <td data-label="求人">
                  {closed ? job.title : <Link href={`/jobs/${job.id}`}>{job.title}</Link>}
                </td>
                <td data-label="公開日">{job.publishedAt ? formatDateJa(job.publishedAt) : '—'}</td>
                <td data-label="募集締切">
                  {job.closingDate ? formatDateJa(job.closingDate) : 'なし'}
                </td>
                <td data-label="状態">{closed ? '募集終了' : '公開中'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </BizSection>
  );
}
