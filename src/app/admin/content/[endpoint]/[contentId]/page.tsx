import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { ContentEditor } from '@/components/admin/content/content-editor.client';
import { ReviewPanel } from '@/components/admin/content/review-panel';
import { env } from '@/env';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { consolePaths } from '@/lib/admin-content';
import {
  editItemPage,
  endpointLabel,
  requireConsoleUser,
} from '@/server/features/admin/content-pages';
import { readFlash } from '@/server/platform/http/read-flash';
import { ContentBreadcrumb } from '@/components/admin/staff-list-page';

type Props = { params: Promise<{ endpoint: string; contentId: string }> };

export const generateMetadata = gatedMetadata(requireConsoleUser, async ({ params }: Props) => {
  const { endpoint, contentId } = await params;
  return accountMetadata(
    `${endpointLabel(endpoint)}を編集`,
    consolePaths.edit(endpoint, contentId),
  );
});

/** An item in the editor: its working copy, state, preview and workflow. */
export default async function EditContentPage({ params }: Props) {
  const { endpoint, contentId } = await params;
  const { def, item, title, access } = await editItemPage(endpoint, contentId);
  const flash = await readFlash();
  return (
    <div className={styles.page}>
      <ContentBreadcrumb>
        {def.kind === 'list' ? (
          <Link href={consolePaths.list(def.endpoint)}>{def.label}</Link>
        ) : (
          def.label
        )}
      </ContentBreadcrumb>
      <h1 className={styles.title}>{def.kind === 'list' ? title || '（無題）' : def.label}</h1>
      <PageMessages flash={flash} />
      {item.updatedAt ? (
        <ReviewPanel
          endpoint={def.endpoint}
          id={item.id}
          updatedAt={item.updatedAt}
          access={access}
          flash={flash}
        />
      ) : null}
      <ContentEditor
        def={def}
        item={item}
        canPublish={access.publish}
        site={{ name: env().SITE_NAME, url: env().SITE_URL }}
      />
    </div>
  );
}
