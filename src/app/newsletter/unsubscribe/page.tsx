import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { type SearchParamsProps, textParam } from '@/components/listing/page-params';
import { Button } from '@/components/ui/button';
import { getDb } from '@/server/platform/db/client';
import {
  INVALID_TOKEN_MESSAGE,
  unsubscribeTarget,
} from '@/server/features/newsletter/unsubscribe-http';

export const metadata = accountMetadata('ニュースレターの配信停止', '/newsletter/unsubscribe');
export const dynamic = 'force-dynamic';

/**
 * The letter's unsubscribe link, without signing in: the masked address and one button. A GET
 * never unsubscribes (mail scanners open links); the button posts to this same URL
 * (src/server/features/newsletter/unsubscribe-http.ts), which comes back here with `done=1`. A token
 * that does not verify is answered 400 by the front server
 * (src/server/features/front/page-requests.ts) and explained here.
 */
export default async function UnsubscribePage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  // Not textParam: a token is longer than its 100 characters.
  const token = typeof query.token === 'string' ? query.token : '';
  const target = await unsubscribeTarget(await getDb(), token);
  if (!target) {
    return (
      <AccountPage title="配信停止のリンクが正しくありません">
        <Notice tone="error">
          <p>{INVALID_TOKEN_MESSAGE}</p>
        </Notice>
        <p>
          <Link href="/account">アカウントページへ</Link>（ログインが必要です）
        </p>
      </AccountPage>
    );
  }
  const address = target.maskedEmail ?? 'このメールアドレス';
  if (textParam(query.done) === '1' && !target.subscribed) {
    return (
      <AccountPage title="配信を停止しました">
        <Notice>
          <p>{address} へのニュースレターの配信を停止しました。</p>
        </Notice>
        <p>
          すでに配信の準備に入っていた号が 1
          通届くことがあります。ご了承ください。再開するときは、ログインしてアカウントページの「ニュースレター」から再開できます。
        </p>
        <p>
          <Link href="/account">アカウントページで再開する</Link>
        </p>
        <p>
          <Link href="/">トップページへ</Link>
        </p>
      </AccountPage>
    );
  }
  return (
    <AccountPage
      title="ニュースレターの配信停止"
      lead={<p>{address} 宛てのニュースレターの配信を停止します。</p>}
    >
      {target.subscribed ? (
        <form
          method="post"
          action={`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`}
        >
          <Button type="submit" color="black" fullWidth height={48}>
            配信を停止する
          </Button>
        </form>
      ) : (
        <Notice tone="info">
          <p>このメールアドレスへのニュースレターは、現在配信していません。</p>
        </Notice>
      )}
      <p>
        <Link href="/account">アカウントページ</Link>
        では、ログインして配信の再開や停止ができます。
      </p>
    </AccountPage>
  );
}
