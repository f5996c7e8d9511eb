import { Link } from '@/components/layout/site-link';
import adminStyles from '@/components/admin/admin.module.css';
import { Button } from '@/components/ui/button';
import { BULK_ACTION_LABELS, type BulkConfirmProps, consolePaths } from '@/lib/admin-content';
import styles from './content.module.css';
import { StatusBadge } from './status-badge';

/** What each action does to an item, said on the confirmation screen. */
const EFFECT: Readonly<Record<BulkConfirmProps['action'], string>> = {
  publish: '今の内容（未公開の変更を含む）でサイトに公開されます。',
  unpublish: 'サイトから外れ、下書きに戻ります。',
  delete: '削除されます。元に戻すことはできません。',
};

/**
 * The bulk action's confirmation: the action, every chosen item with its state now, and one
 * button that posts them (each with the version shown here: an item changed meanwhile is
 * refused, not acted on unseen). A plain form; the list shows what was done afterwards.
 */
export function BulkConfirm({ def, action, rows, missing }: BulkConfirmProps) {
  const verb = BULK_ACTION_LABELS[action].replace(/する$/, '');
  return (
    <>
      <h1 className={adminStyles.title}>
        {rows.length}件の{def.label}を{BULK_ACTION_LABELS[action]}
      </h1>
      <p>
        次の{rows.length}件を{verb}します。{EFFECT[action]}
      </p>
      {missing.length ? (
        <p role="note">
          選んだうち{missing.length}件は見つかりませんでした（削除された可能性があります）。
        </p>
      ) : null}
      <ul aria-label={`${verb}する${def.label}`}>
        {rows.map((row) => (
          <li key={row.id}>
            {row.title || `（タイトルなし: ${row.id}）`}{' '}
            <StatusBadge status={row.status} scheduledAt={row.scheduledAt} />
          </li>
        ))}
      </ul>
      {rows.length ? (
        <form method="post" action={consolePaths.apiBulk(def.endpoint)} className={styles.bulkForm}>
          <input type="hidden" name="action" value={action} />
          {rows.map((row) => (
            <input key={row.id} type="hidden" name="items" value={`${row.id}@${row.updatedAt}`} />
          ))}
          <Button
            type="submit"
            color={action === 'delete' ? 'black' : 'yellow'}
            width="auto"
            height={44}
          >
            {rows.length}件を{BULK_ACTION_LABELS[action].replace(/する$/, '')}する
          </Button>
          <Link href={consolePaths.list(def.endpoint)}>やめて一覧に戻る</Link>
        </form>
      ) : (
        <Link href={consolePaths.list(def.endpoint)}>一覧に戻る</Link>
      )}
    </>
  );
}
