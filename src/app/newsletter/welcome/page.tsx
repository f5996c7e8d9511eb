import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import type { SearchParamsProps } from '@/components/listing/page-params';
import { getUser } from '@/server/features/identity/session';

export const metadata = accountMetadata('ようこそ', '/newsletter/welcome');
export const dynamic = 'force-dynamic';

/** After the footer's confirmation: the newsletter is on; a new member may set a name later. */
export default async function NewsletterWelcomePage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  const user = await getUser();
  const existing = query.existing === '1';
  return (
    <AccountPage title={existing ? 'ニュースレターの配信を開始しました' : 'ようこそ'}>
      <Notice>
        <p>
          {existing
            ? 'ご登録のアカウントで、ニュースレターの配信を開始しました。'
            : '無料会員として登録し、ニュースレターの配信を開始しました。'}
        </p>
      </Notice>
      {user ? (
        <>
          <p>お名前（表示名）やパスワードは、あとからいつでも設定できます。</p>
          <ul>
            <li>
              <Link href="/account/edit">お名前（表示名）を設定する</Link>
            </li>
            <li>
              <Link href="/account/forgot-password">パスワードを設定する</Link>
              （メールでお送りするリンクから設定します。パスワードなしでも、ログイン画面の「メールでログイン」で入れます）
            </li>
            <li>
              <Link href="/posts">記事を読む</Link>
            </li>
          </ul>
        </>
      ) : (
        <p>
          <Link href="/login">ログイン</Link>
          すると、アカウントページから配信の停止や再開ができます。
        </p>
      )}
    </AccountPage>
  );
}
