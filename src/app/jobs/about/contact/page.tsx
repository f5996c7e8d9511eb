import Link from 'next/link';
import { EmailField } from '@/components/account/account-fields';
import { AccountPage, Notice } from '@/components/account/account-page';
import { Field, PostForm, TextArea } from '@/components/forms/form.client';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import {
  INQUIRY_COMPANY_MAX,
  INQUIRY_MESSAGE_MAX,
  INQUIRY_NAME_MAX,
  INQUIRY_PHONE_MAX,
} from '@/lib/inquiries';
import { getDb } from '@/server/db/client';
import { readFlash, typedText } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';
import { getProfileDetails } from '@/server/profiles/profiles';

export const metadata = sitePageMetadata({
  title: '求人掲載のお問い合わせ',
  description:
    'AXIS Membership への求人掲載をご検討の企業さまからのお問い合わせを受け付けています。掲載の条件と料金を担当者からご案内します。',
  path: '/jobs/about/contact',
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function JobPostingContactPage({ searchParams }: Props) {
  const query = await searchParams;
  if (query.sent) {
    return (
      <AccountPage title="お問い合わせを受け付けました">
        <Notice>
          <p>
            求人掲載についてのお問い合わせを受け付けました。ご入力のメールアドレスに受付確認のメールをお送りしました。担当者から、掲載の条件と料金をご案内します。
          </p>
        </Notice>
        <p>
          お返事まで数営業日いただくことがあります。受付確認のメールが届かない場合は、迷惑メールフォルダもご確認ください。
        </p>
        <p>
          パートナープログラムへの参加をお決めの場合は、
          <Link href="/biz/request">パートナープログラムのお申し込み</Link>
          からもお申し込みいただけます。
        </p>
        <p>
          <Link href="/jobs">求人一覧へ戻る</Link>
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
      title="求人掲載のお問い合わせ"
      lead={
        <p>
          デザイナーに向けた求人の掲載をご検討の企業さまは、こちらからお問い合わせください。内容を確認のうえ、担当者から掲載の条件と料金をメールでご案内します。求人掲載は
          <Link href="/biz/about">パートナープログラム</Link>
          のひとつです。参加をお決めの場合は、
          <Link href="/biz/request">パートナープログラムのお申し込み</Link>
          へお進みください。
        </p>
      }
      footer={
        <p>
          ご入力いただいた個人情報の取扱いについては、
          <Link href="/terms#privacy">利用規約の「個人情報の取扱い」</Link>
          をご覧ください。
        </p>
      }
    >
      <PostForm action="/api/jobs/contact" submitLabel="送信する" initialErrors={flash}>
        <Field
          name="company"
          label="会社名"
          autoComplete="organization"
          required
          maxLength={INQUIRY_COMPANY_MAX}
          defaultValue={typed('company') ?? (profile?.company || undefined)}
        />
        <Field
          name="name"
          label="お名前"
          autoComplete="name"
          required
          maxLength={INQUIRY_NAME_MAX}
          defaultValue={typed('name') ?? profile?.displayName ?? user?.name}
        />
        <EmailField defaultValue={typed('email') ?? user?.email} />
        <Field
          name="phone"
          label="電話番号（任意）"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          hint="半角数字とハイフンで入力してください（例：03-1234-5678）"
          maxLength={INQUIRY_PHONE_MAX}
          defaultValue={typed('phone')}
        />
        <TextArea
          name="message"
          label="お問い合わせ内容"
          hint={`募集したい職種や人数、掲載の時期など。${INQUIRY_MESSAGE_MAX.toLocaleString('ja-JP')} 文字以内`}
          required
          maxLength={INQUIRY_MESSAGE_MAX}
          defaultValue={typed('message')}
        />
      </PostForm>
    </AccountPage>
  );
}
