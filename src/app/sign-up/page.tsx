import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignUpForm } from '@/components/account/sign-up-form';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { readFlash } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('会員登録', '/sign-up');

export default async function SignUpPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  if (query.sent) {
    return (
      <AccountPage title="確認メールを送信しました">
        <Notice>
          <p>
            ご入力のメールアドレスに確認メールをお送りしました。メール内のリンクを開くと登録が完了し、ログインできるようになります。リンクの有効期限は
            24 時間です。
          </p>
        </Notice>
        <p>
          メールが届かない場合は、迷惑メールフォルダをご確認ください。しばらくしても届かないときは、
          <Link href="/login">ログイン</Link>を試すと確認メールをもう一度お送りします。
        </p>
      </AccountPage>
    );
  }
  // The page the reader came from (a bookmark, a paywall): the verification link returns there.
  const next = safeNextPath(
    typeof query.next === 'string' ? query.next : undefined,
    env().SITE_URL,
  );
  if (await getUser()) redirect(next);
  const flash = await readFlash();
  return (
    <AccountPage
      title="会員登録"
      lead={
        <p>
          無料の会員登録で、会員限定記事のうち新しいもの 3
          本を全文で読めるほか、ブックマークやコネクトをご利用いただけます。
        </p>
      }
      footer={
        <p>
          すでにアカウントをお持ちの方は{' '}
          <Link href={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`}>
            ログイン
          </Link>
        </p>
      }
    >
      <SignUpForm flash={flash} next={next} />
    </AccountPage>
  );
}
