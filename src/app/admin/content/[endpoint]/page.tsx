import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { ContentList } from '@/components/admin/content/content-list';
import { consolePaths } from '@/lib/admin-content';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { failure } from '@/lib/http/form-flash';
import {
  contentListPage,
  endpointLabel,
  requireConsoleUser,
} from '@/server/features/admin/content-pages';
import { readFlash } from '@/server/platform/http/read-flash';
import { ContentBreadcrumb } from '@/components/admin/staff-list-page';

type Props = {
  params: Promise<{ endpoint: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const generateMetadata = gatedMetadata(requireConsoleUser, async ({ params }: Props) => {
  const { endpoint } = await params;
  return accountMetadata(endpointLabel(endpoint), consolePaths.list(endpoint));
});

/** One endpoint's items, every state, with search, filters, sort and paging. */
export default async function ContentListPage({ params, searchParams }: Props) {
  const list = await contentListPage((await params).endpoint, await searchParams);
  const flash = await readFlash();
  // A bulk action's refusals, one line per item (src/server/features/console/bulk.ts).
  const refused = Object.entries(failure(flash)?.values ?? {})
    .filter(([key]) => key.startsWith('refused'))
    .flatMap(([, line]) => line);
  return (
    <div className={styles.page}>
      <ContentBreadcrumb>{list.def.label}</ContentBreadcrumb>
      <h1 className={styles.title}>{list.def.label}</h1>
      <PageMessages flash={flash} />
      {refused.length ? (
        <ul aria-label="実行できなかった項目">
          {refused.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <ContentList {...list} />
    </div>
  );
}
