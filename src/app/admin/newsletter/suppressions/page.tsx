import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { requireAdmin } from '@/server/features/identity/session';
import adminStyles from '@/components/admin/admin.module.css';
import { NewsletterPageTitle } from '@/components/admin/newsletter/newsletter-step';
import { SuppressForm, SuppressionList } from '@/components/admin/newsletter/suppressions';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import type { SearchParamsProps } from '@/components/listing/page-params';
import { pageParam } from '@/components/listing/page-params';
import styles from '@/components/admin/users/users.module.css';
import { failure } from '@/lib/http/form-flash';
import { newsletterPaths } from '@/lib/newsletter/console';
import { suppressionsPage } from '@/server/features/newsletter/console';
import { readFlash } from '@/server/platform/http/read-flash';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('配信停止リスト', newsletterPaths.suppressions),
);

/**
 * Admins only (editors too get the 404 page, as for /admin/users): the addresses no newsletter
 * goes to (bounces, complaints, by hand), with adding and removing. Both are audited.
 */
export default async function SuppressionsPage({ searchParams }: SearchParamsProps) {
  const { items, page, pageCount, total } = await suppressionsPage(
    pageParam((await searchParams).page),
  );
  const flash = await readFlash();
  const failed = failure(flash);
  const typedEmail = typeof failed?.values.email === 'string' ? failed.values.email : '';
  // A removal that failed names an address of the list; anything else is the add form's.
  const rowError =
    failed && items.some((row) => row.email === typedEmail) && !failed.values.reason
      ? { email: typedEmail, message: failed.message ?? '' }
      : null;
  const formFailed = failed && !rowError;
  return (
    <div className={adminStyles.page}>
      <NewsletterPageTitle title="配信停止リスト" />
      <p className={styles.lead}>
        届かないアドレス（バウンス）や迷惑メールの報告があったアドレス、スタッフが止めたアドレスには、配信を希望していてもニュースレターを送りません。
      </p>
      <PageMessages flash={flash} errorAt={formFailed ? '#suppress' : null} />
      <SuppressForm
        failed={formFailed ? { fieldErrors: failed.fieldErrors, typed: failed.values } : null}
      />
      <SuppressionList result={{ items, page, pageCount }} total={total} rowError={rowError} />
    </div>
  );
}
