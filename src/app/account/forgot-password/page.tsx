import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { EmailField } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { readFlash, typedText } from '@/server/platform/http/read-flash';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('パスワードの再設定', '/account/forgot-password');

export default async function ForgotPasswordPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  const flash = await readFlash();
  return (
    <AccountPage
      title="パスワードの再設定"
      lead={<p>ご登録のメールアドレスに、パスワードを再設定するためのリンクをお送りします。</p>}
      footer={<Link href="/login">ログインに戻る</Link>}
    >
      {query.sent ? (
        <Notice>
          <p>
            ご入力のメールアドレスが登録されている場合、パスワード再設定のご案内を送信しました。リンクの有効期限は
            1 時間です。
          </p>
        </Notice>
      ) : null}
      <PostForm
        action="/api/account/forgot-password"
        submitLabel="再設定のリンクを送る"
        initialErrors={flash}
      >
        <EmailField defaultValue={typedText(flash, 'email')} />
      </PostForm>
    </AccountPage>
  );
}
