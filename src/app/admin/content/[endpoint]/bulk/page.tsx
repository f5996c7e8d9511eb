import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { BulkConfirm } from '@/components/admin/content/bulk-confirm';
import { consolePaths } from '@/lib/admin-content';
import {
  bulkConfirmPage,
  endpointLabel,
  requireConsoleUser,
} from '@/server/features/admin/content-pages';
import { ContentBreadcrumb } from '@/components/admin/staff-list-page';

type Props = {
  params: Promise<{ endpoint: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const generateMetadata = gatedMetadata(requireConsoleUser, async ({ params }: Props) => {
  const { endpoint } = await params;
  return accountMetadata(
    `${endpointLabel(endpoint)}の一括操作`,
    consolePaths.bulkConfirm(endpoint),
  );
});

/** What a bulk action will change, before it does: the chosen items as they are now. */
export default async function BulkConfirmPage({ params, searchParams }: Props) {
  const confirm = await bulkConfirmPage((await params).endpoint, await searchParams);
  const { def } = confirm;
  return (
    <div className={styles.page}>
      <ContentBreadcrumb>
        <Link href={consolePaths.list(def.endpoint)}>{def.label}</Link> / 一括操作の確認
      </ContentBreadcrumb>
      <BulkConfirm {...confirm} />
    </div>
  );
}
