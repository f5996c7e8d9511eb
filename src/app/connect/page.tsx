import '@/styles/base';
import { CONNECT_DESCRIPTION } from '@/lib/site';
import { Link } from '@/components/layout/site-link';
import { connectCard } from '@/components/listing/cards';
import { EmptyState, ListPage, PagedCards } from '@/components/listing/list-page';
import { pageParam, type SearchParamsProps } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { currentViewer } from '@/server/features/access/current-viewer';
import { connectAccess } from '@/lib/access/post-access';
import { listConnect } from '@/server/features/content/lists';

export const metadata = sitePageMetadata({
  title: 'コネクト',
  description: `${CONNECT_DESCRIPTION}。ログインしている会員の方なら、どなたでもお読みいただけます。`,
  path: '/connect',
});

export default async function ConnectPage({ searchParams }: SearchParamsProps) {
  const page = pageParam((await searchParams).page);
  // The lead speaks to the viewer: a way in for a visitor, none for a member (who reads every
  // page). currentViewer notes the audience, so the page cache keeps one rendering of each.
  const [pages, viewer] = await Promise.all([listConnect(page), currentViewer()]);
  const signedIn = connectAccess(viewer).full;
  return (
    <ListPage
      title="コネクト"
      lead={
        signedIn ? (
          <p>
            {CONNECT_DESCRIPTION}
            です。日時や参加のお申し込み方法は、各ページでご覧いただけます。
          </p>
        ) : (
          <p>
            {CONNECT_DESCRIPTION}
            です。各ページの詳細は、
            <Link href="/sign-up">無料の会員登録</Link>または
            <Link href="/login?next=%2Fconnect">ログイン</Link>
            のうえでお読みいただけます。
          </p>
        )
      }
    >
      <PagedCards
        list={pages}
        card={connectCard}
        basePath="/connect"
        empty={<EmptyState>コネクトのページはまだありません。</EmptyState>}
      />
    </ListPage>
  );
}
