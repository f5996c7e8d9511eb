import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { CurrentPasswordField, EmailField } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { readFlash, typedText } from '@/server/platform/http/read-flash';
import { requireUser } from '@/server/features/identity/session';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('メールアドレスの変更', '/account/change-email');

export default async function ChangeEmailPage({ searchParams }: SearchParamsProps) {
  const user = await requireUser('/account/change-email');
  const query = await searchParams;
  const flash = await readFlash();
  return (
    <AccountPage
      title="メールアドレスの変更"
      lead={
        <p>
          新しいメールアドレスに確認メールをお送りします。メール内のリンクを開くと変更が完了します。現在のアドレスにもお知らせが届きます。
        </p>
      }
      footer={<Link href="/account/edit">アカウント設定に戻る</Link>}
    >
      {query.sent ? (
        <Notice>
          <p>
            確認メールを送信しました。新しいメールアドレスに届いたリンクを開くと変更が完了します。
          </p>
        </Notice>
      ) : null}
      <p>
        現在のメールアドレス: <strong>{user.email}</strong>
      </p>
      <PostForm
        action="/api/account/change-email"
        submitLabel="確認メールを送る"
        initialErrors={flash}
      >
        <EmailField
          name="newEmail"
          label="新しいメールアドレス"
          defaultValue={typedText(flash, 'newEmail')}
        />
        <CurrentPasswordField label="現在のパスワード" confirmsIdentity />
      </PostForm>
    </AccountPage>
  );
}
