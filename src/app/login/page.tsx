import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { redirect } from 'next/navigation';
import { PasswordSignInForm, SignInLinkForm } from '@/components/account/sign-in-forms';
import { AccountPage, Notice, Section } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { readFlash } from '@/server/platform/http/read-flash';
import { getUser } from '@/server/features/identity/session';
import { SIGN_IN_LINK_SECONDS } from '@/server/features/identity/auth';
import {
  OIDC_PROVIDER_LABELS,
  configuredProviders,
  isOidcProviderId,
} from '@/server/features/identity/oidc-providers';
import { ProviderSignIn } from '@/components/account/provider-sign-in';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('ログイン', '/login');

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** What a failed provider sign-in tells the reader, by better-auth's error code. */
function providerProblem(provider: string, code: string | undefined): string {
  switch (code) {
    case 'account_not_linked':
      return `この ${provider} アカウントのメールアドレスは、すでに会員登録に使われています。メールアドレスとパスワード、または「メールでログイン」でログインしてください。`;
    case 'email_not_found':
      return `${provider} からメールアドレスを受け取れませんでした。${provider} の設定でメールアドレスの提供を許可するか、ほかの方法でログインしてください。`;
    case 'access_denied':
      return `${provider} でのログインがキャンセルされました。`;
    case 'rate_limited':
      return '短時間に何度も試みられたため、一時的に受け付けを停止しています。しばらく待ってからもう一度お試しください。';
    default:
      return `${provider} でログインできませんでした。お手数ですが、もう一度お試しいただくか、ほかの方法でログインしてください。`;
  }
}

/** How long a mailed sign-in link works, in the minutes the page says. */
const LINK_MINUTES = SIGN_IN_LINK_SECONDS / 60;

/** What became of the sign-in link the reader asked for by mail (`?link=`), in words. */
function signInLinkNotice(
  state: string | undefined,
): { tone: 'success' | 'error'; text: string } | null {
  switch (state) {
    case 'sent':
      return {
        tone: 'success',
        text: `ご入力のメールアドレスにログイン用のリンクをお送りしました。${LINK_MINUTES} 分以内にメール内のリンクを開いてください。届かない場合は、迷惑メールのフォルダと、入力したアドレスをご確認ください。`,
      };
    case 'invalid':
      return {
        tone: 'error',
        text: `このログイン用リンクは有効期限（${LINK_MINUTES} 分）が切れているか、すでに使われています。下の「メールでログイン」から新しいリンクをお申し込みください。`,
      };
    case 'limited':
      return {
        tone: 'error',
        text: '短時間に何度も試みられたため、一時的に受け付けを停止しています。しばらく待ってからもう一度お試しください。',
      };
    default:
      return null;
  }
}

export default async function LoginPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  const next = safeNextPath(one(query.next), env().SITE_URL);
  if (await getUser()) redirect(next);
  const flash = await readFlash();
  const linkError = one(query.error);
  const linkState = one(query.link);
  const signInLink = signInLinkNotice(linkState);
  const providers = configuredProviders().map((id) => ({ id, label: OIDC_PROVIDER_LABELS[id] }));
  // A provider's sign-in that failed comes back as ?provider=<id>&error=<code> (oidc-sign-in.ts).
  const providerParam = one(query.provider);
  const failedProvider = providerParam
    ? isOidcProviderId(providerParam)
      ? OIDC_PROVIDER_LABELS[providerParam]
      : '外部サービス'
    : null;
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
      {failedProvider ? (
        <Notice tone="error">
          <p>{providerProblem(failedProvider, linkError)}</p>
        </Notice>
      ) : null}
      {linkError && !failedProvider ? (
        <Notice tone="error">
          <p>
            確認リンクが正しくないか、有効期限が切れています。ログインすると、確認メールをもう一度お送りします。
          </p>
        </Notice>
      ) : null}
      {signInLink ? (
        <Notice tone={signInLink.tone}>
          <p>{signInLink.text}</p>
        </Notice>
      ) : null}
      <PasswordSignInForm next={next} flash={flash} />
      <ProviderSignIn providers={providers} next={next} />
      <Section title="メールでログイン">
        <p>
          パスワードを使わずにログインできます。登録済みのメールアドレスに、{LINK_MINUTES} 分間・1
          回だけ使えるログイン用のリンクをお送りします。
        </p>
        <SignInLinkForm next={next} flash={flash} />
      </Section>
    </AccountPage>
  );
}
