import Link from 'next/link';
import { AccountForm, Field } from '@/components/account/account-form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { readFlash } from '@/server/http/read-flash';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/server/identity/validation';

export const metadata = accountMetadata('新しいパスワードの設定', '/account/reset-password');

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ResetPasswordPage({ searchParams }: Props) {
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
      <AccountForm flow="reset-password" submitLabel="パスワードを設定する" initialErrors={flash}>
        <input type="hidden" name="token" value={token} />
        <Field
          name="password"
          label="新しいパスワード"
          hint={`${PASSWORD_MIN}〜${PASSWORD_MAX} 文字。メールアドレスや推測されやすいものは使えません。`}
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
        />
        <Field
          name="passwordConfirm"
          label="新しいパスワード（確認）"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
        />
      </AccountForm>
    </AccountPage>
  );
}
