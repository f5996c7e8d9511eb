import '@/styles/base';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import type { SearchParamsProps } from '@/components/listing/page-params';
import { NewsletterSubscribeForm } from '@/components/newsletter/subscribe-form';
import { EMAIL_VERIFICATION_SECONDS } from '@/server/features/identity/auth';
import { readFlash } from '@/server/platform/http/read-flash';

export const metadata = accountMetadata('ニュースレター', '/newsletter/subscribe');

/**
 * Where the footer's form lands: 「確認メールを送信しました」 after a post (the same for every
 * address), or the form again with what went wrong.
 */
export default async function NewsletterSubscribePage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  const flash = await readFlash();
  const sent = query.sent === '1' && !flash?.fieldErrors?.email;
  return (
    <AccountPage title={sent ? '確認メールを送信しました' : 'ニュースレターを受け取る'}>
      {sent ? (
        <Notice>
          <p>
            ご入力のメールアドレスに確認メールをお送りしました。{EMAIL_VERIFICATION_SECONDS / 3600}{' '}
            時間以内にメール内のリンクを開き、「登録を完了する」を押してください。
          </p>
        </Notice>
      ) : flash?.message ? (
        <Notice tone="error">
          <p>{flash.fieldErrors?.email ?? flash.message}</p>
        </Notice>
      ) : null}
      {sent ? (
        <p>
          メールが届かない場合は、迷惑メールフォルダをご確認のうえ、もう一度お申し込みください。
        </p>
      ) : (
        <NewsletterSubscribeForm tone="light" />
      )}
    </AccountPage>
  );
}
