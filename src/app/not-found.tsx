import { Link } from '@/components/layout/site-link';
import { notFoundMetadata } from '@/components/system/not-found-metadata';
import { StatusPage } from '@/components/system/status-page';

export const metadata = notFoundMetadata;

export default function NotFound() {
  return (
    <StatusPage
      code="404"
      title="ページが見つかりません"
      links={
        <>
          <Link href="/">トップページへ戻る</Link>
          <Link href="/search">サイト内を検索する</Link>
        </>
      }
    >
      お探しのページは移動または削除されたか、URL が間違っている可能性があります。
    </StatusPage>
  );
}
