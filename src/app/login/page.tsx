import Link from 'next/link';
import { redirect } from 'next/navigation';
import { CurrentPasswordField, EmailField } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { readFlash, typedText } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';

export const metadata = accountMetadata('ログイン', '/login');

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

export default async function LoginPage({ searchParams }: Props) {
  const query = await searchParams;
  const next = safeNextPath(one(query.next), env().SITE_URL);
  if (await getUser()) redirect(next);
  const flash = await readFlash();
  const linkError = one(query.error);
  return (
    <AccountPage
      title="ログイン"
      footer={
        <>
          <Link href="/account/forgot-password">パスワードをお忘れの方</Link>
          <p>
            アカウントをお持ちでない方は <Link href="/sign-up">会員登録（無料）</Link>
          </p>
        </>
      }
    >
      {one(query.verified) && !linkError ? (
        <Notice>
          <p>メールアドレスを確認しました。ログインしてご利用ください。</p>
        </Notice>
      ) : null}
      {one(query.reset) ? (
        <Notice>
          <p>パスワードを再設定しました。新しいパスワードでログインしてください。</p>
        </Notice>
      ) : null}
      {linkError ? (
        <Notice tone="error">
          <p>
            確認リンクが正しくないか、有効期限が切れています。ログインすると、確認メールをもう一度お送りします。
          </p>
        </Notice>
      ) : null}
      <PostForm
        action="/api/account/sign-in"
        submitLabel="ログイン"
        initialErrors={flash}
        changesLogin
      >
        <input type="hidden" name="next" value={next} />
        <EmailField defaultValue={typedText(flash, 'email')} />
        <CurrentPasswordField />
      </PostForm>
    </AccountPage>
  );
}
