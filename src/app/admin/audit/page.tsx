import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { AuditEntries } from '@/components/admin/users/audit-entries';
import { AUDIT_ACTION_LABELS, auditActionLabel } from '@/components/admin/users/audit-labels';
import { parseAuditQuery } from '@/components/admin/users/list-query';
import styles from '@/components/admin/users/users.module.css';
import {
  StaffFilter,
  StaffResultList,
  StaffPageHead,
  StaffSelect,
  staffInputClass,
} from '@/components/admin/staff-list-page';
import { auditActions, listAuditPage, userEmailsFor } from '@/server/platform/audit/audit-query';
import { getDb } from '@/server/platform/db/client';
import { requireAdmin } from '@/server/features/identity/session';
import { Options } from '@/components/forms/options';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('監査ログ', '/admin/audit'),
);

/** Admins only: every security-relevant action, newest first, narrowed by action or party. */
export default async function AdminAuditPage({ searchParams }: SearchParamsProps) {
  await requireAdmin();
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
      <StaffPageHead
        title="監査ログ"
        lead="ログイン、権限やプランの変更など、セキュリティに関わる操作の記録です。新しい順に表示します。日時は日本時間です。"
      />
      <StaffResultList
        path="/admin/audit"
        search={{
          filters: (
            <>
              <StaffSelect
                id="audit-action"
                name="action"
                label="操作"
                value={query.action}
                all="すべての操作"
              >
                <Options items={actions} label={auditActionLabel} />
              </StaffSelect>
              <StaffFilter id="audit-q" label="実行者・対象で絞り込む">
                <input
                  id="audit-q"
                  name="q"
                  type="search"
                  defaultValue={query.q}
                  maxLength={100}
                  className={staffInputClass}
                  autoComplete="off"
                  aria-describedby="audit-q-hint"
                />
                <span id="audit-q-hint" className={styles.hint}>
                  例：user:ユーザー ID、cli:、system
                </span>
              </StaffFilter>
            </>
          ),
          submitLabel: '絞り込む',
          filtered: filtered,
          clearLabel: '条件を解除',
        }}
        count={
          <>
            {filtered ? '条件に一致する記録：' : 'すべての記録：'}
            {result.total}件
          </>
        }
        result={result}
        whenEmpty={filtered ? '条件に一致する記録はありません。' : '記録はまだありません。'}
        pageParams={{ action: query.action || undefined, q: query.q || undefined }}
        pageLabel="監査ログのページ送り"
      >
        <AuditEntries items={result.items} emails={emails} />
      </StaffResultList>
    </div>
  );
}
