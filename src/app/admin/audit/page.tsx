import Link from 'next/link';
import { accountMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { AuditEntries } from '@/components/admin/users/audit-entries';
import { AUDIT_ACTION_LABELS, auditActionLabel } from '@/components/admin/users/audit-labels';
import { parseAuditQuery } from '@/components/admin/users/list-query';
import { Pagination } from '@/components/listing/list-page';
import styles from '@/components/admin/users/users.module.css';
import { Button } from '@/components/ui/button';
import { auditActions, listAuditPage, userEmailsFor } from '@/server/audit/audit-query';
import { getDb } from '@/server/db/client';
import { requireRole } from '@/server/identity/session';

export const metadata = accountMetadata('監査ログ', '/admin/audit');

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Admins only: every security-relevant action, newest first, narrowed by action or party. */
export default async function AdminAuditPage({ searchParams }: Props) {
  await requireRole('admin');
  const query = parseAuditQuery(await searchParams);
  const db = await getDb();
  const [result, present] = await Promise.all([
    listAuditPage(db, { page: query.page, action: query.action || undefined, q: query.q }),
    auditActions(db),
  ]);
  const emails = await userEmailsFor(
    db,
    result.items.flatMap((item) => [item.actor, item.target]),
  );
  // Every action that has happened, and the known ones, so the filter never hides a choice.
  const actions = [...new Set([...present, ...Object.keys(AUDIT_ACTION_LABELS), query.action])]
    .filter(Boolean)
    .sort((a, b) => auditActionLabel(a).localeCompare(auditActionLabel(b), 'ja'));
  const filtered = query.action !== '' || query.q !== '';

  return (
    <div className={adminStyles.page}>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / 監査ログ
      </p>
      <h1 className={adminStyles.title}>監査ログ</h1>
      <p className={styles.lead}>
        ログイン、権限やプランの変更など、セキュリティに関わる操作の記録です。新しい順に表示します。日時は日本時間です。
      </p>
      <form method="get" action="/admin/audit" role="search" className={styles.search}>
        <div className={styles.searchField}>
          <label htmlFor="audit-action" className={styles.label}>
            操作
          </label>
          <select
            id="audit-action"
            name="action"
            defaultValue={query.action}
            className={styles.input}
          >
            <option value="">すべての操作</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {auditActionLabel(action)}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.searchField}>
          <label htmlFor="audit-q" className={styles.label}>
            実行者・対象で絞り込む
          </label>
          <input
            id="audit-q"
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={100}
            className={styles.input}
            autoComplete="off"
            aria-describedby="audit-q-hint"
          />
          <span id="audit-q-hint" className={styles.hint}>
            例：user:ユーザー ID、cli:、system
          </span>
        </div>
        <Button type="submit" color="black" width="auto" height={44}>
          絞り込む
        </Button>
        {filtered ? (
          <Link href="/admin/audit" className={styles.clear}>
            条件を解除
          </Link>
        ) : null}
      </form>
      <p className={styles.count} role="status">
        {filtered ? '条件に一致する記録：' : 'すべての記録：'}
        {result.total}件
      </p>
      {result.items.length === 0 ? (
        <p className={adminStyles.empty}>
          {filtered ? '条件に一致する記録はありません。' : '記録はまだありません。'}
        </p>
      ) : (
        <AuditEntries items={result.items} emails={emails} />
      )}
      <Pagination
        basePath="/admin/audit"
        page={result.page}
        totalPages={result.pageCount}
        params={{ action: query.action || undefined, q: query.q || undefined }}
        label="監査ログのページ送り"
      />
    </div>
  );
}
