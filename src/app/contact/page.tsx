import Link from 'next/link';
import { EmailField } from '@/components/account/account-fields';
import { AccountPage, Notice } from '@/components/account/account-page';
import { Field, PostForm, SelectField, TextArea } from '@/components/forms/form.client';
import { PrivacyNote } from '@/components/forms/inquiry-parts';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX, CONTACT_SUBJECTS } from '@/lib/contact';
import { getDb } from '@/server/db/client';
import { readFlash, typedText } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';
import { getProfileDetails } from '@/server/profiles/profiles';

export const metadata = sitePageMetadata({
  title: 'お問い合わせ',
  description:
    '記事やコンテンツ、会員登録、料金プラン、法人でのご利用などについてのお問い合わせはこちらから。',
  path: '/contact',
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ContactPage({ searchParams }: Props) {
  const query = await searchParams;
  if (query.sent) {
    return (
      <AccountPage title="お問い合わせを受け付けました">
        <Notice>
          <p>
            お問い合わせを受け付けました。ご入力のメールアドレスに受付確認のメールをお送りしました。内容を確認のうえ、担当者からご連絡します。
          </p>
        </Notice>
        <p>
          お返事まで数営業日いただくことがあります。受付確認のメールが届かない場合は、迷惑メールフォルダもご確認ください。
        </p>
        <p>
          <Link href="/">トップページへ戻る</Link>
        </p>
      </AccountPage>
    );
  }

  const [flash, user] = await Promise.all([readFlash(), getUser()]);
  const profile = user ? await getProfileDetails(await getDb(), user.id) : null;
  // What was typed wins over what the account says.
  const typed = (name: string) => typedText(flash, name);
  return (
    <AccountPage
      title="お問い合わせ"
      lead={
        <p>
          記事やサービスについてのご質問、ご意見をお寄せください。内容を確認のうえ、担当者からメールでご返信します。よくいただくご質問は
          <Link href="/faq">よくある質問</Link>にまとめています。
        </p>
      }
      footer={<PrivacyNote />}
    >
      <PostForm action="/api/contact" submitLabel="送信する" initialErrors={flash}>
        <Field
          name="name"
          label="お名前"
          autoComplete="name"
          required
          maxLength={CONTACT_NAME_MAX}
          defaultValue={typed('name') ?? profile?.displayName ?? user?.name}
        />
        <EmailField defaultValue={typed('email') ?? user?.email} />
        <SelectField
          name="subject"
          label="お問い合わせの種類"
          placeholder="選択してください"
          options={CONTACT_SUBJECTS}
          required
          defaultValue={typed('subject') ?? ''}
        />
        <TextArea
          name="message"
          label="お問い合わせ内容"
          hint={`${CONTACT_MESSAGE_MAX.toLocaleString('ja-JP')} 文字以内`}
          required
          maxLength={CONTACT_MESSAGE_MAX}
          defaultValue={typed('message')}
        />
      </PostForm>
    </AccountPage>
  );
}
