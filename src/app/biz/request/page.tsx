import Link from 'next/link';
import { EmailField } from '@/components/account/account-fields';
import { AccountPage, Notice } from '@/components/account/account-page';
import { Field, PostForm, SelectField, TextArea } from '@/components/forms/form.client';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import {
  COMPANY_SIZES,
  INQUIRY_COMPANY_MAX,
  INQUIRY_MESSAGE_MAX,
  INQUIRY_NAME_MAX,
  INQUIRY_PHONE_MAX,
  INQUIRY_WEBSITE_MAX,
  PARTNER_PLANS,
} from '@/lib/inquiries';
import { getDb } from '@/server/db/client';
import { readFlash, typedText } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';
import { getProfileDetails } from '@/server/profiles/profiles';

export const metadata = sitePageMetadata({
  title: 'パートナープログラムのお申し込み',
  description:
    'AXIS Membership のパートナープログラムへのお申し込みはこちらから。担当者から、ご契約の条件と今後の流れをご案内します。',
  path: '/biz/request',
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PartnerRequestPage({ searchParams }: Props) {
  const query = await searchParams;
  if (query.sent) {
    return (
      <AccountPage title="お申し込みを受け付けました">
        <Notice>
          <p>
            パートナープログラムへのお申し込みを受け付けました。ご入力のメールアドレスに受付確認のメールをお送りしました。担当者から、ご契約の条件と今後の流れをご案内します。
          </p>
        </Notice>
        <p>
          お返事まで数営業日いただくことがあります。受付確認のメールが届かない場合は、迷惑メールフォルダもご確認ください。
        </p>
        <p>
          <Link href="/biz/about">パートナープログラムのご案内へ戻る</Link>
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
      title="パートナープログラムのお申し込み"
      lead={
        <p>
          <Link href="/biz/about">パートナープログラム</Link>
          への参加を希望される企業さまは、こちらからお申し込みください。担当者がお申し込みの内容を確認し、ご契約の条件と今後の流れをメールでご案内します。まずは求人掲載について相談したい場合は、
          <Link href="/jobs/about/contact">求人掲載のお問い合わせ</Link>
          をご利用ください。
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
      <PostForm action="/api/biz/request" submitLabel="申し込む" initialErrors={flash}>
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
          label="ご担当者名"
          autoComplete="name"
          required
          maxLength={INQUIRY_NAME_MAX}
          defaultValue={typed('name') ?? profile?.displayName ?? user?.name}
        />
        <EmailField defaultValue={typed('email') ?? user?.email} />
        <Field
          name="phone"
          label="電話番号"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          hint="半角数字とハイフンで入力してください（例：03-1234-5678）"
          required
          maxLength={INQUIRY_PHONE_MAX}
          defaultValue={typed('phone')}
        />
        <Field
          name="website"
          label="ウェブサイト（任意）"
          type="url"
          autoComplete="url"
          inputMode="url"
          hint="https:// から入力してください"
          maxLength={INQUIRY_WEBSITE_MAX}
          defaultValue={typed('website')}
        />
        <SelectField
          name="companySize"
          label="従業員数"
          placeholder="選択してください"
          options={COMPANY_SIZES}
          required
          defaultValue={typed('companySize') ?? ''}
        />
        <SelectField
          name="plan"
          label="ご関心のあるプラン"
          placeholder="選択してください"
          options={PARTNER_PLANS}
          required
          defaultValue={typed('plan') ?? ''}
        />
        <TextArea
          name="message"
          label="ご相談・ご質問（任意）"
          hint={`掲載したい求人の内容や時期など。${INQUIRY_MESSAGE_MAX.toLocaleString('ja-JP')} 文字以内`}
          maxLength={INQUIRY_MESSAGE_MAX}
          defaultValue={typed('message')}
        />
      </PostForm>
    </AccountPage>
  );
}
