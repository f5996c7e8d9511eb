import Link from 'next/link';
import { redirect } from 'next/navigation';
import { EmailField, NewPasswordFields } from '@/components/account/account-fields';
import { PostForm, Checkbox, Field } from '@/components/forms/form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { readFlash, typedText } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';
import { DISPLAY_NAME_MAX } from '@/lib/account-limits';

export const metadata = accountMetadata('会員登録', '/sign-up');

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignUpPage({ searchParams }: Props) {
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
  const value = (name: string) => typedText(flash, name);
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
      <PostForm action="/api/account/sign-up" submitLabel="登録する" initialErrors={flash}>
        {next === '/' ? null : <input type="hidden" name="next" value={next} />}
        <Field
          name="displayName"
          label="表示名"
          // Where the name shows: the header's account menu, the account settings and the
          // greeting of our mails and receipts (account-menu.client.tsx, src/server/mail).
          hint={`${DISPLAY_NAME_MAX} 文字以内。ログイン中の画面上部のアカウントメニューと、メールや領収書の宛名に使います。`}
          autoComplete="nickname"
          required
          maxLength={DISPLAY_NAME_MAX}
          defaultValue={value('displayName')}
        />
        <EmailField defaultValue={value('email')} />
        <NewPasswordFields />
        <Checkbox name="consent" defaultChecked={value('consent') === 'on'}>
          <Link href="/terms" target="_blank">
            利用規約
          </Link>
          と
          <Link href="/terms#privacy" target="_blank">
            プライバシーポリシー
          </Link>
          に同意します（必須）
        </Checkbox>
        <Checkbox name="newsletter" defaultChecked={value('newsletter') === 'on'}>
          ニュースレター（新着記事やイベントのお知らせ）を受け取る
        </Checkbox>
      </PostForm>
    </AccountPage>
  );
}
