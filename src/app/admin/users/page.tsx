import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { parseUsersQuery } from '@/components/admin/users/list-query';
import { UserList } from '@/components/admin/users/user-list';
import {
  StaffFilter,
  StaffResultList,
  StaffPageHead,
  StaffSearchInput,
} from '@/components/admin/staff-list-page';
import { searchUsers } from '@/server/features/admin/users-directory';
import { getDb } from '@/server/platform/db/client';
import { requireAdmin } from '@/server/features/identity/session';
import { partnerDeps, partnerNames } from '@/server/features/partners/partners';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('ユーザー', '/admin/users'),
);

/** Admins only (editors and everyone else see the 404 page): find an account, open it. */
export default async function AdminUsersPage({ searchParams }: SearchParamsProps) {
  await requireAdmin();
  const query = parseUsersQuery(await searchParams);
  const deps = await partnerDeps();
  const [result, partners] = await Promise.all([
    searchUsers(await getDb(), query),
    partnerNames(deps),
  ]);
  const names = new Map(partners.map((p) => [p.id, p.name]));

  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="ユーザー"
        lead={
          <>
            権限、無償プラン、パートナー企業の所属を変更したり、すべての端末からログアウトさせたりできます。変更はすべて
            <Link href="/admin/audit">監査ログ</Link>に記録されます。
          </>
        }
      />
      <StaffResultList
        path="/admin/users"
        search={{
          filters: (
            <StaffFilter id="user-search" label="メールアドレスまたは表示名で検索">
              <StaffSearchInput id="user-search" defaultValue={query.q} />
            </StaffFilter>
          ),
          submitLabel: '検索',
          filtered: !!query.q,
          clearLabel: '検索を解除',
        }}
        count={
          <>
            {query.q ? `「${query.q}」に一致するユーザー：` : '登録順（新しい順）：'}
            {result.total}人
          </>
        }
        result={result}
        whenEmpty={query.q ? '一致するユーザーはいません。' : 'ユーザーはまだいません。'}
        pageParams={{ q: query.q || undefined }}
        pageLabel="ユーザー一覧のページ送り"
      >
        <UserList users={result.items} partnerNames={names} />
      </StaffResultList>
    </div>
  );
}
