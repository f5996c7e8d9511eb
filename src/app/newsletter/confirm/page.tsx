import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { type SearchParamsProps, textParam } from '@/components/listing/page-params';
import { Button } from '@/components/ui/button';
import { maskAddress } from '@/server/platform/mail/mailer';
import { readConfirmation } from '@/server/features/newsletter/footer-subscribe';

export const metadata = accountMetadata('ニュースレター登録の確認', '/newsletter/confirm');
export const dynamic = 'force-dynamic';

/**
 * The confirmation mail's link: one button that completes the subscription (a GET never does:
 * mail scanners open links). A link that is altered, expired or already used says so.
 */
export default async function NewsletterConfirmPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  // Not textParam: a token is longer than its 100 characters.
  const token = typeof query.token === 'string' ? query.token : '';
  const claim = readConfirmation(token);
  const error = textParam(query.error);
  if (!claim || error) {
    return (
      <AccountPage title="このリンクは使えません">
        <Notice tone="error">
          <p>
            {error === 'used'
              ? 'このリンクはすでに使われています。登録は完了しています。'
              : 'リンクが正しくないか、有効期限が切れています。お手数ですが、もう一度お申し込みください。'}
          </p>
        </Notice>
        <p>
          <Link href="/newsletter/subscribe">ニュースレターに申し込む</Link>
        </p>
        <p>
          <Link href="/login">ログイン</Link>
        </p>
      </AccountPage>
    );
  }
  return (
    <AccountPage
      title="ニュースレター登録の確認"
      lead={<p>{maskAddress(claim.e)} でニュースレターの受け取りを開始します。</p>}
    >
      <form method="post" action={`/api/newsletter/confirm?token=${encodeURIComponent(token)}`}>
        <Button type="submit" fullWidth height={48}>
          登録を完了する
        </Button>
      </form>
      <p>
        まだ会員でない方は、無料会員として登録され、ログインした状態になります。登録により
        <Link href="/terms">利用規約</Link>に同意したものとみなします。配信はいつでも停止できます。
      </p>
    </AccountPage>
  );
}
