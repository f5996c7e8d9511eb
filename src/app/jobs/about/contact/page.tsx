import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { TextArea } from '@/components/forms/form.client';
import { inquiryRoute, SenderFields } from '@/components/forms/inquiry-parts';
import { INQUIRY_MESSAGE_MAX } from '@/lib/inquiries';
import { formatNumber } from '@/lib/format';

const route = inquiryRoute({
  title: '求人掲載のお問い合わせ',
  description:
    'AXIS Membership への求人掲載をご検討の企業さまからのお問い合わせを受け付けています。掲載の条件と料金を担当者からご案内します。',
  path: '/jobs/about/contact',
  lead: (
    <p>
      デザイナーに向けた求人の掲載をご検討の企業さまは、こちらからお問い合わせください。内容を確認のうえ、担当者から掲載の条件と料金をメールでご案内します。求人掲載は
      <Link href="/biz/about">パートナープログラム</Link>
      のひとつです。参加をお決めの場合は、
      <Link href="/biz/request">パートナープログラムのお申し込み</Link>
      へお進みください。
    </p>
  ),
  action: '/api/jobs/contact',
  submitLabel: '送信する',
  sent: {
    title: 'お問い合わせを受け付けました',
    notice:
      '求人掲載についてのお問い合わせを受け付けました。ご入力のメールアドレスに受付確認のメールをお送りしました。担当者から、掲載の条件と料金をご案内します。',
    next: (
      <>
        <p>
          パートナープログラムへの参加をお決めの場合は、
          <Link href="/biz/request">パートナープログラムのお申し込み</Link>
          からもお申し込みいただけます。
        </p>
        <p>
          <Link href="/jobs">求人一覧へ戻る</Link>
        </p>
      </>
    ),
  },
  fields: (defaults) => (
    <>
      <SenderFields defaults={defaults} nameLabel="お名前" phoneRequired={false} />
      <TextArea
        name="message"
        label="お問い合わせ内容"
        hint={`募集したい職種や人数、掲載の時期など。${formatNumber(INQUIRY_MESSAGE_MAX)} 文字以内`}
        required
        maxLength={INQUIRY_MESSAGE_MAX}
        defaultValue={defaults.typed('message')}
      />
    </>
  ),
});

export const metadata = route.metadata;
export default route.Page;
