import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { ContentEditor } from '@/components/admin/content/content-editor.client';
import { env } from '@/env';
import { consolePaths } from '@/lib/admin-content';
import {
  endpointLabel,
  newItemPage,
  requireConsoleUser,
} from '@/server/features/admin/content-pages';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { ContentBreadcrumb } from '@/components/admin/staff-list-page';

export const generateMetadata = gatedMetadata(
  requireConsoleUser,
  async ({ params }: RouteParamsProps<'endpoint'>) => {
    const { endpoint } = await params;
    return accountMetadata(`${endpointLabel(endpoint)}を作成`, consolePaths.create(endpoint));
  },
);

/** A new item of a list endpoint: the first save creates it as a draft. */
export default async function NewContentPage({ params }: RouteParamsProps<'endpoint'>) {
  const { def, item, canPublish } = await newItemPage((await params).endpoint);
  return (
    <div className={styles.page}>
      <ContentBreadcrumb>
        <Link href={consolePaths.list(def.endpoint)}>{def.label}</Link> / 新規作成
      </ContentBreadcrumb>
      <h1 className={styles.title}>{def.label}を作成</h1>
      <ContentEditor
        def={def}
        item={item}
        canPublish={canPublish}
        site={{ name: env().SITE_NAME, url: env().SITE_URL }}
      />
    </div>
  );
}
