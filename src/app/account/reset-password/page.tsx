import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { NewPasswordFields } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { readFlash } from '@/server/platform/http/read-flash';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('新しいパスワードの設定', '/account/reset-password');

export default async function ResetPasswordPage({ searchParams }: SearchParamsProps) {
  const { token } = await searchParams;
  const flash = await readFlash();
  if (typeof token !== 'string' || token === '') {
    return (
      <AccountPage title="新しいパスワードの設定">
        <Notice tone="error">
          <p>リンクが正しくありません。メールに記載のリンクをそのまま開いてください。</p>
        </Notice>
        <Link href="/account/forgot-password">再設定をもう一度申し込む</Link>
      </AccountPage>
    );
  }
  return (
    <AccountPage
      title="新しいパスワードの設定"
      lead={<p>新しいパスワードを設定すると、ほかの端末ではログアウトされます。</p>}
      footer={<Link href="/account/forgot-password">再設定をもう一度申し込む</Link>}
    >
      <PostForm
        action="/api/account/reset-password"
        submitLabel="パスワードを設定する"
        initialErrors={flash}
      >
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields label="新しいパスワード" />
      </PostForm>
    </AccountPage>
  );
}
