import Link from 'next/link';
import { AccountForm, Field } from '@/components/account/account-form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { readFlash } from '@/server/http/read-flash';
import { requireUser } from '@/server/identity/session';

export const metadata = accountMetadata('メールアドレスの変更', '/account/change-email');

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ChangeEmailPage({ searchParams }: Props) {
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
      <AccountForm flow="change-email" submitLabel="確認メールを送る" initialErrors={flash}>
        <Field
          name="newEmail"
          label="新しいメールアドレス"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={
            typeof flash?.values.newEmail === 'string' ? flash.values.newEmail : undefined
          }
        />
        <Field
          name="password"
          label="現在のパスワード"
          hint="ご本人の確認のために入力してください。"
          type="password"
          autoComplete="current-password"
          required
          maxLength={128}
        />
      </AccountForm>
    </AccountPage>
  );
}
