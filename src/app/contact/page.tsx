import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { EmailField } from '@/components/account/account-fields';
import { Field, SelectField, TextArea } from '@/components/forms/form.client';
import { inquiryRoute } from '@/components/forms/inquiry-parts';
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX, CONTACT_SUBJECTS } from '@/lib/contact';
import { formatNumber } from '@/lib/format';

const route = inquiryRoute({
  title: 'お問い合わせ',
  description:
    '記事やコンテンツ、会員登録、料金プラン、法人でのご利用などについてのお問い合わせはこちらから。',
  path: '/contact',
  lead: (
    <p>
      記事やサービスについてのご質問、ご意見をお寄せください。内容を確認のうえ、担当者からメールでご返信します。よくいただくご質問は
      <Link href="/faq">よくある質問</Link>にまとめています。
    </p>
  ),
  action: '/api/contact',
  submitLabel: '送信する',
  sent: {
    title: 'お問い合わせを受け付けました',
    notice:
      'お問い合わせを受け付けました。ご入力のメールアドレスに受付確認のメールをお送りしました。内容を確認のうえ、担当者からご連絡します。',
    next: (
      <p>
        <Link href="/">トップページへ戻る</Link>
      </p>
    ),
  },
  fields: ({ name, email, typed }) => (
    <>
      <Field
        name="name"
        label="お名前"
        autoComplete="name"
        required
        maxLength={CONTACT_NAME_MAX}
        defaultValue={name}
      />
      <EmailField defaultValue={email} />
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
        hint={`${formatNumber(CONTACT_MESSAGE_MAX)} 文字以内`}
        required
        maxLength={CONTACT_MESSAGE_MAX}
        defaultValue={typed('message')}
      />
    </>
  ),
});

export const metadata = route.metadata;
export default route.Page;
