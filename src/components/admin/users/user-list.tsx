import { Link } from '@/components/layout/site-link';
import { formatDateJa } from '@/lib/format';
import type { DirectoryUser } from '@/server/features/admin/users-directory';
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

/**
 * What the admin screens say of every account (the list's cards and the user's page): its
 * display name, role, e-mail check, plan and partner, as rows of a <dl>.
 */
export function UserFactRows({
  user,
  partnerNames,
}: {
  user: Pick<
    DirectoryUser,
    'displayName' | 'name' | 'role' | 'emailVerified' | 'plan' | 'partnerId'
  >;
  partnerNames: Map<string, string>;
}) {
  return (
    <>
      <dt>表示名</dt>
      <dd>{user.displayName ?? user.name}</dd>
      <dt>権限</dt>
      <dd>{ROLE_LABELS[user.role]}</dd>
      <dt>メール確認</dt>
      <dd>{user.emailVerified ? '確認済み' : '未確認'}</dd>
      <dt>プラン</dt>
      <dd>{planText(user.plan)}</dd>
      <dt>パートナー</dt>
      <dd>
        <PartnerLink partnerId={user.partnerId} names={partnerNames} />
      </dd>
    </>
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
            <UserFactRows user={u} partnerNames={partnerNames} />
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
