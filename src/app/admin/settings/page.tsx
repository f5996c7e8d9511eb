import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { MeteredConversions, MeteredSettingForm } from '@/components/admin/settings/settings-form';
import { StaffPageHead } from '@/components/admin/staff-list-page';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { failure } from '@/lib/http/form-flash';
import { SETTINGS_FORM_KEY } from '@/server/features/admin/settings-http';
import { meteredConversions, readMeteredAllowance } from '@/server/features/metered';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('サイトの設定', '/admin/settings'),
);

/**
 * Site settings (admins only; everyone else sees the 404 page): the metered wall's allowance, and
 * what metered reads led to per post.
 */
export default async function SettingsPage() {
  await requireAdmin();
  const db = await getDb();
  const since = new Date(Date.now() - 30 * 86_400_000);
  const [value, conversions, received] = await Promise.all([
    readMeteredAllowance(db),
    meteredConversions(db, { since }),
    readFlash(),
  ]);
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="サイトの設定"
        lead="変更は監査ログに記録されます。読者のページには数秒から1分ほどで反映されます。"
      />
      <PageMessages flash={received} errorAt="#metered" />
      <MeteredSettingForm formKey={SETTINGS_FORM_KEY} value={value} flash={failure(received)} />
      <MeteredConversions rows={conversions} />
    </div>
  );
}
