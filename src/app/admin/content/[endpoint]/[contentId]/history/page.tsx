import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { VersionHistory } from '@/components/admin/content/version-history';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { consolePaths } from '@/lib/admin-content';
import {
  endpointLabel,
  historyPage,
  requireConsoleUser,
} from '@/server/features/admin/content-pages';
import { readFlash } from '@/server/platform/http/read-flash';
import { ContentBreadcrumb } from '@/components/admin/staff-list-page';

type Props = {
  params: Promise<{ endpoint: string; contentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const generateMetadata = gatedMetadata(requireConsoleUser, async ({ params }: Props) => {
  const { endpoint, contentId } = await params;
  return accountMetadata(
    `${endpointLabel(endpoint)}の変更履歴`,
    consolePaths.history(endpoint, contentId),
  );
});

/** Who changed the item and when, two versions compared, and restoring one. */
export default async function ContentHistoryPage({ params, searchParams }: Props) {
  const { endpoint, contentId } = await params;
  const history = await historyPage(endpoint, contentId, await searchParams);
  const flash = await readFlash();
  return (
    <div className={styles.page}>
      <ContentBreadcrumb>
        <Link href={consolePaths.edit(history.endpoint, history.id)}>
          {history.title || history.def.label}
        </Link>{' '}
        / 変更履歴
      </ContentBreadcrumb>
      <h1 className={styles.title}>変更履歴</h1>
      <PageMessages flash={flash} />
      <VersionHistory {...history} />
    </div>
  );
}
