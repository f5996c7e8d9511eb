import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { SignUpForm } from '@/components/account/sign-up-form';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { confirmPath } from '@/lib/confirm-path';
import { PostForm } from '@/components/forms/form.client';
import { readFlash } from '@/server/platform/http/read-flash';
import { EMAIL_VERIFICATION_SECONDS } from '@/server/features/identity/auth';
import { sentMailOf } from '@/server/features/identity/sign-up-sent';
import { lifetimeText } from '@/server/platform/mail/templates';
import { getUser } from '@/server/features/identity/session';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('会員登録', '/sign-up');

export default async function SignUpPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  if (query.sent) return <SentPage resent={query.resent === '1'} />;
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

/**
 * 「確認メールを送信しました」: the address the mail went to (from the sign-up's signed cookie,
 * never the URL), what its link does, and a button that sends it again
 * (docs/decisions/039-reader-path.md). Without the cookie (expired, another browser) the page
 * says the same without the address, and signing in sends a new mail.
 */
async function SentPage({ resent }: { resent: boolean }) {
  const sent = sentMailOf(await headers());
  const lifetime = lifetimeText(EMAIL_VERIFICATION_SECONDS);
  const then = sent?.plan
    ? 'ログインした状態でお支払いの画面に進みます'
    : 'ログインした状態で元のページに戻ります';
  return (
    <AccountPage title="確認メールを送信しました">
      <Notice>
        {sent ? (
          <p>
            <strong>{sent.email}</strong> に確認メールを{resent ? 'もう一度' : ''}
            お送りしました。メール内のリンクを開くと登録が完了し、
            {then}。リンクの有効期限は {lifetime}で、1 回だけ使えます。
          </p>
        ) : (
          <p>
            ご入力のメールアドレスに確認メールをお送りしました。メール内のリンクを開くと登録が完了し、ログインできるようになります。リンクの有効期限は{' '}
            {lifetime}です。
          </p>
        )}
      </Notice>
      {sent ? (
        <>
          <p>メールが届かない場合は、迷惑メールフォルダをご確認のうえ、もう一度お送りください。</p>
          <PostForm action="/api/account/resend-verification" submitLabel="確認メールを再送する">
            {null}
          </PostForm>
          <p>
            メールアドレスが違う場合は、
            <Link
              href={
                sent.plan
                  ? confirmPath(sent.plan, sent.next, sent.offer)
                  : sent.next === '/'
                    ? '/sign-up'
                    : `/sign-up?next=${encodeURIComponent(sent.next)}`
              }
            >
              別のアドレスで登録し直してください
            </Link>
            。
          </p>
        </>
      ) : (
        <p>
          メールが届かない場合は、迷惑メールフォルダをご確認ください。しばらくしても届かないときは、
          <Link href="/login">ログイン</Link>を試すと確認メールをもう一度お送りします。
        </p>
      )}
    </AccountPage>
  );
}
