import Link from 'next/link';
import { accountMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { parseUsersQuery } from '@/components/admin/users/list-query';
import { Pagination } from '@/components/listing/list-page';
import { UserList } from '@/components/admin/users/user-list';
import styles from '@/components/admin/users/users.module.css';
import { Button } from '@/components/ui/button';
import { searchUsers } from '@/server/admin/users-directory';
import { getDb } from '@/server/db/client';
import { requireRole } from '@/server/identity/session';
import { partnerDeps, partnerNames } from '@/server/partners/partners';

export const metadata = accountMetadata('ユーザー', '/admin/users');

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Admins only (editors and everyone else see the 404 page): find an account, open it. */
export default async function AdminUsersPage({ searchParams }: Props) {
  await requireRole('admin');
  const query = parseUsersQuery(await searchParams);
  const deps = await partnerDeps();
  const [result, partners] = await Promise.all([
    searchUsers(await getDb(), query),
    partnerNames(deps),
  ]);
  const names = new Map(partners.map((p) => [p.id, p.name]));

  return (
    <div className={adminStyles.page}>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / ユーザー
      </p>
      <h1 className={adminStyles.title}>ユーザー</h1>
      <p className={styles.lead}>
        権限、無償プラン、パートナー企業の所属を変更したり、すべての端末からログアウトさせたりできます。変更はすべて
        <Link href="/admin/audit">監査ログ</Link>に記録されます。
      </p>
      <form method="get" action="/admin/users" role="search" className={styles.search}>
        <div className={styles.searchField}>
          <label htmlFor="user-search" className={styles.label}>
            メールアドレスまたは表示名で検索
          </label>
          <input
            id="user-search"
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={100}
            className={styles.input}
            autoComplete="off"
          />
        </div>
        <Button type="submit" color="black" width="auto" height={44}>
          検索
        </Button>
        {query.q ? (
          <Link href="/admin/users" className={styles.clear}>
            検索を解除
          </Link>
        ) : null}
      </form>
      <p className={styles.count} role="status">
        {query.q ? `「${query.q}」に一致するユーザー：` : '登録順（新しい順）：'}
        {result.total}人
      </p>
      {result.items.length === 0 ? (
        <p className={adminStyles.empty}>
          {query.q ? '一致するユーザーはいません。' : 'ユーザーはまだいません。'}
        </p>
      ) : (
        <UserList users={result.items} partnerNames={names} />
      )}
      <Pagination
        basePath="/admin/users"
        page={result.page}
        totalPages={result.pageCount}
        params={{ q: query.q || undefined }}
        label="ユーザー一覧のページ送り"
      />
    </div>
  );
}
