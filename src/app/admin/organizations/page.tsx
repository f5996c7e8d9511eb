import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import {
  CreateOrganizationSection,
  OrganizationList,
} from '@/components/admin/organizations/organization-console';
import { StaffPageHead } from '@/components/admin/staff-list-page';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { failure, flashKey } from '@/lib/http/form-flash';
import { listPlans } from '@/server/features/billing/catalogue';
import { listOrganizations } from '@/server/features/organizations';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('法人プラン', '/admin/organizations'),
);

/** 法人プラン's organisations (admins only; everyone else sees the 404 page): list, edit, register. */
export default async function OrganizationsPage() {
  await requireAdmin();
  const db = await getDb();
  const [organizations, plans, received] = await Promise.all([
    listOrganizations(db),
    listPlans(db),
    readFlash(),
  ]);
  const failedKey = failure(received) ? flashKey(received) : null;
  const errorAt = failedKey?.startsWith('organization-edit-')
    ? `#org-${failedKey.slice('organization-edit-'.length)}`
    : '#create';
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="法人プラン"
        lead="法人ごとの席数と、参加できるメールアドレスのドメインです。そのドメインの確認済みアドレスで登録・ログインした読者は、席が残っていれば有料会員として読めます。法人の管理者は /account/organization でメンバーと席を管理します。"
      />
      <PageMessages flash={received} errorAt={errorAt} />
      <OrganizationList
        organizations={organizations}
        planNames={new Map(plans.map((p) => [p.key, p.name]))}
        flash={received}
      />
      <CreateOrganizationSection flash={received} />
    </div>
  );
}
