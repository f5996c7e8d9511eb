import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusPage } from '@/components/system/status-page';

export const metadata: Metadata = {
  title: 'ページが見つかりません',
  robots: { index: false },
};

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
