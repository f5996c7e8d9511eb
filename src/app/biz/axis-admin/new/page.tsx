import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { requireProgrammeStaff } from '@/server/features/partners/actor';
import styles from '@/components/biz/biz-admin.module.css';
import { failure, flashFor } from '@/lib/http/form-flash';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { EMPTY_PARTNER_FORM, PartnerForm } from '@/components/biz/axis-admin/partner-form';
import { readFlash } from '@/server/platform/http/read-flash';
import { LOGO_MAX_BYTES } from '@/server/features/partners/partners';

export const generateMetadata = gatedMetadata(
  requireProgrammeStaff,
  accountMetadata('パートナー企業の登録', '/biz/axis-admin/new'),
);

const FORM_KEY = 'partner-new';

/** Staff register a partner company: its public profile and its contract. */
export default async function NewPartnerPage() {
  await requireProgrammeStaff();
  const received = failure(await readFlash());
  const flash = flashFor(received, FORM_KEY);
  // A post refused before its fields were read (too large, say) comes back without its key.
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <p className={styles.breadcrumb}>
          <Link href="/biz/axis-admin">パートナープログラムの管理</Link> / 新規登録
        </p>
        <h1 className={styles.title}>パートナー企業の登録</h1>
        <p className={styles.lead}>
          登録するとすぐに企業情報が公開され、求人ページの企業欄や求人一覧の絞り込みに使われます。メンバーは登録のあと、企業のページから追加できます。
        </p>
      </header>
      {/* The form's own errors stand at the form. */}
      <PageMessages flash={flash ? null : received} />
      <div className={styles.narrow}>
        <PartnerForm
          action="/api/biz/axis-admin/partners"
          formKey={FORM_KEY}
          submitLabel="登録する"
          values={EMPTY_PARTNER_FORM}
          flash={flash}
          logo={null}
          logoMaxBytes={LOGO_MAX_BYTES}
        />
      </div>
    </div>
  );
}
