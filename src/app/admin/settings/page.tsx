import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { MeteredSettingForm } from '@/components/admin/settings/settings-form';
import { StaffPageHead } from '@/components/admin/staff-list-page';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { failure } from '@/lib/http/form-flash';
import { SETTINGS_FORM_KEY } from '@/server/features/admin/settings-http';
import { readMeteredAllowance } from '@/server/features/metered';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('サイトの設定', '/admin/settings'),
);

/** Site settings (admins only; everyone else sees the 404 page): the metered wall's allowance. */
export default async function SettingsPage() {
  await requireAdmin();
  const [value, received] = await Promise.all([readMeteredAllowance(await getDb()), readFlash()]);
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="サイトの設定"
        lead="変更は監査ログに記録されます。読者のページには数秒から1分ほどで反映されます。"
      />
      <PageMessages flash={received} errorAt="#metered" />
      <MeteredSettingForm formKey={SETTINGS_FORM_KEY} value={value} flash={failure(received)} />
    </div>
  );
}
