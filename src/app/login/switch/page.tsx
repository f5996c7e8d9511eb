import '@/styles/base';
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { PostForm } from '@/components/forms/form.client';
import type { SearchParamsProps } from '@/components/listing/page-params';
import { ButtonLink } from '@/components/ui/button';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { appAuth } from '@/server/features/identity/app-auth';
import { SIGN_IN_LINK_SECONDS, signInLinkUrl } from '@/server/features/identity/auth';
import { getUser } from '@/server/features/identity/session';
import { loginPageWith, signInLinkAddress } from '@/server/features/account/sign-in-link';

// Its address carries the link's token: no Referer takes it anywhere.
export const metadata: Metadata = {
  ...accountMetadata('アカウントの切り替え', '/login/switch'),
  referrer: 'no-referrer',
};
export const dynamic = 'force-dynamic';

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/**
 * Where a sign-in link lands when the browser is signed in with another address
 * (src/server/features/account/sign-in-link.ts): switching is the reader's own act, never a link's
 * alone (login CSRF). The link stays unspent until the button is pressed.
 */
export default async function SwitchAccountPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  const token = one(query.token) ?? '';
  const next = safeNextPath(one(query.next), env().SITE_URL);
  const linkFor = await signInLinkAddress(await appAuth(), token);
  if (!linkFor) redirect(loginPageWith('invalid', next));
  const user = await getUser();
  // Nothing to ask (signed out meanwhile, or the link is this account's): the link as mailed.
  if (!user || user.email.toLowerCase() === linkFor)
    redirect(signInLinkUrl(env().SITE_URL, token, next));
  return (
    <AccountPage
      title="アカウントを切り替えますか？"
      lead={
        <>
          <p>現在 {user.email} でログインしています。</p>
          <p>開いたログイン用リンクは {linkFor} のアカウントのものです。</p>
        </>
      }
    >
      <Notice tone="info">
        <p>{`切り替えると ${user.email} からログアウトし、${linkFor} でログインします。`}</p>
        <p>ご自身で申し込んだリンクでない場合は、切り替えずにこのままお使いください。</p>
      </Notice>
      <PostForm
        action="/api/account/switch-account"
        submitLabel={`${linkFor} でログインする`}
        changesLogin
      >
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="next" value={next} />
      </PostForm>
      <ButtonLink href={next} color="white" fullWidth height={48}>
        {user.email} のまま続ける
      </ButtonLink>
      <p>
        このリンクは、切り替えるまで使われません（有効期限はお申し込みから{' '}
        {SIGN_IN_LINK_SECONDS / 60} 分です）。
      </p>
    </AccountPage>
  );
}
