import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { requireNewsletterStaff } from '@/server/features/newsletter/console';
import adminStyles from '@/components/admin/admin.module.css';
import { SendList } from '@/components/admin/newsletter/send-list';
import { StaffPageHead } from '@/components/admin/staff-list-page';
import { newsletterPaths } from '@/lib/newsletter/console';
import { sendsPage } from '@/server/features/newsletter/console';
import { getUser } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireNewsletterStaff,
  accountMetadata('ニュースレター', newsletterPaths.sends),
);

/** Editors and admins: every send, newest first (the 100 newest), with its counts. */
export default async function NewsletterSendsPage() {
  const sends = await sendsPage();
  const user = await getUser();
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="ニュースレター"
        lead={
          <>
            記事をメールで配信した記録です。配信は記事の編集画面の「メールで配信」から行います。
            {user?.role === 'admin' ? (
              <>
                {' '}
                届かないアドレスや苦情のあったアドレスは
                <Link href={newsletterPaths.suppressions}>配信停止リスト</Link>で管理します。
              </>
            ) : null}
          </>
        }
      />
      <SendList sends={sends} />
    </div>
  );
}
