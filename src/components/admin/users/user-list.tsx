import Link from 'next/link';
import { formatDateJa } from '@/lib/format';
import type { DirectoryUser } from '@/server/admin/users-directory';
import { ROLE_LABELS, planText } from '@/lib/identity/user-labels';
import styles from './users.module.css';

export const userAdminPage = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

/** The partner a user belongs to, linking to its staff page; its id when it is not published. */
export function PartnerLink({
  partnerId,
  names,
}: {
  partnerId: string | null;
  names: Map<string, string>;
}) {
  if (!partnerId) return <span className={styles.muted}>なし</span>;
  return (
    <Link href={`/biz/axis-admin/${encodeURIComponent(partnerId)}`}>
      {names.get(partnerId) ?? `${partnerId}（非公開または削除済み）`}
    </Link>
  );
}

/** One page of accounts, newest first, each a card linking to the user's page. */
export function UserList({
  users,
  partnerNames,
}: {
  users: DirectoryUser[];
  partnerNames: Map<string, string>;
}) {
  return (
    <ul className={styles.list}>
      {users.map((u) => (
        <li key={u.id} className={styles.item}>
          <h2 className={styles.itemTitle}>
            <Link href={userAdminPage(u.id)}>{u.email}</Link>
          </h2>
          <dl className={`${styles.facts} ${styles.inline}`}>
            <dt>表示名</dt>
            <dd>{u.displayName ?? u.name}</dd>
            <dt>権限</dt>
            <dd>{ROLE_LABELS[u.role]}</dd>
            <dt>メール確認</dt>
            <dd>{u.emailVerified ? '確認済み' : '未確認'}</dd>
            <dt>プラン</dt>
            <dd>{planText(u.plan)}</dd>
            <dt>パートナー</dt>
            <dd>
              <PartnerLink partnerId={u.partnerId} names={partnerNames} />
            </dd>
            <dt>登録日</dt>
            <dd>
              <time dateTime={u.createdAt.toISOString()}>{formatDateJa(u.createdAt)}</time>
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
