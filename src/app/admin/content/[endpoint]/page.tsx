import Link from 'next/link';
import type { Metadata } from 'next';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { ContentList } from '@/components/admin/content/content-list';
import { consolePaths } from '@/lib/admin-content';
import { contentListPage, endpointLabel } from '@/server/admin/content-pages';

type Props = {
  params: Promise<{ endpoint: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { endpoint } = await params;
  return accountMetadata(endpointLabel(endpoint), consolePaths.list(endpoint));
}

/** One endpoint's items, every state, with search, filters, sort and paging. */
export default async function ContentListPage({ params, searchParams }: Props) {
  const list = await contentListPage((await params).endpoint, await searchParams);
  return (
    <div className={styles.page}>
      <p className={styles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / <Link href="/admin/content">コンテンツ</Link> /{' '}
        {list.def.label}
      </p>
      <h1 className={styles.title}>{list.def.label}</h1>
      <ContentList {...list} />
    </div>
  );
}
