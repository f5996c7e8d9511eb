import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { Field, SelectField, TextArea } from '@/components/forms/form.client';
import { inquiryRoute, SenderFields } from '@/components/forms/inquiry-parts';
import {
  COMPANY_SIZES,
  INQUIRY_MESSAGE_MAX,
  INQUIRY_WEBSITE_MAX,
  PARTNER_PLANS,
} from '@/lib/inquiries';
import { formatNumber } from '@/lib/format';

const route = inquiryRoute({
  title: 'パートナープログラムのお申し込み',
  description:
    'AXIS Membership のパートナープログラムへのお申し込みはこちらから。担当者から、ご契約の条件と今後の流れをご案内します。',
  path: '/biz/request',
  lead: (
    <p>
      <Link href="/biz/about">パートナープログラム</Link>
      への参加を希望される企業さまは、こちらからお申し込みください。担当者がお申し込みの内容を確認し、ご契約の条件と今後の流れをメールでご案内します。まずは求人掲載について相談したい場合は、
      <Link href="/jobs/about/contact">求人掲載のお問い合わせ</Link>
      をご利用ください。
    </p>
  ),
  action: '/api/biz/request',
  submitLabel: '申し込む',
  sent: {
    title: 'お申し込みを受け付けました',
    notice:
      'パートナープログラムへのお申し込みを受け付けました。ご入力のメールアドレスに受付確認のメールをお送りしました。担当者から、ご契約の条件と今後の流れをご案内します。',
    next: (
      <p>
        <Link href="/biz/about">パートナープログラムのご案内へ戻る</Link>
      </p>
    ),
  },
  fields: (defaults) => (
    <>
      <SenderFields defaults={defaults} nameLabel="ご担当者名" phoneRequired={true} />
      <Field
        name="website"
        label="ウェブサイト（任意）"
        type="url"
        autoComplete="url"
        inputMode="url"
        hint="https:// から入力してください"
        maxLength={INQUIRY_WEBSITE_MAX}
        defaultValue={defaults.typed('website')}
      />
      <SelectField
        name="companySize"
        label="従業員数"
        placeholder="選択してください"
        options={COMPANY_SIZES}
        required
        defaultValue={defaults.typed('companySize') ?? ''}
      />
      <SelectField
        name="plan"
        label="ご関心のあるプラン"
        placeholder="選択してください"
        options={PARTNER_PLANS}
        required
        defaultValue={defaults.typed('plan') ?? ''}
      />
      <TextArea
        name="message"
        label="ご相談・ご質問（任意）"
        hint={`掲載したい求人の内容や時期など。${formatNumber(INQUIRY_MESSAGE_MAX)} 文字以内`}
        maxLength={INQUIRY_MESSAGE_MAX}
        defaultValue={defaults.typed('message')}
      />
    </>
  ),
});

export const metadata = route.metadata;
export default route.Page;
