/**
 * Every kind of mail the site sends (Mail.kind), with the name staff read in the outbox
 * (/admin/mail). The key is what is stored and what the CLI prints; Mail.kind is typed as one
 * of these keys, and kinds.test.ts finds the kinds the code names, so no mail ships unlabelled.
 */
export const MAIL_KIND_LABELS = {
  // Accounts (the first four carry a token link: templates.ts TOKEN_MAIL_KINDS).
  'verify-email': '会員登録のメールアドレス確認',
  'change-email': '新しいメールアドレスの確認',
  'reset-password': 'パスワード再設定',
  'sign-in-link': 'ログイン用リンク',
  'sign-in-link-no-account': 'ログイン用リンクの申し込み（未登録のアドレス）',
  'already-registered': '会員登録の申し込み（登録済みのアドレス）',
  'password-changed': 'パスワード変更のお知らせ',
  'password-set': 'パスワードの設定',
  'change-email-notice': 'メールアドレス変更のお知らせ（変更前のアドレス宛て）',
  'account-deleted': '退会手続きの完了',
  // The newsletter.
  'newsletter-confirm': 'ニュースレター登録の確認',
  newsletter: 'ニュースレター',
  'newsletter-test': 'ニュースレターのテスト送信',
  // Billing.
  'billing-welcome': '有料プランのお申し込み',
  'billing-receipt': '領収書（お支払いの完了）',
  'billing-payment-failed': 'お支払いの失敗',
  'billing-authentication-required': 'お支払いの本人認証（3Dセキュア）のお願い',
  'billing-trial-ending': '無料体験の終了前のお知らせ',
  'billing-cancellation': '解約の受け付け',
  'billing-duplicate-reversed': '重複したお申し込みの取り消し',
  'billing-konbini-voucher': 'コンビニ払いのお支払い番号',
  // Gift subscriptions (src/server/features/gift-plans).
  'gift-plan-delivery': 'ギフト（メンバーシップ）のお届け',
  'gift-plan-ending': 'ギフト（メンバーシップ）の終了前のお知らせ',
  // 法人プラン (src/server/features/organizations).
  'organization-seats-full': '法人プランの席が不足（法人の管理者宛て）',
  'organization-invite': '法人プランへの招待',
  'organization-invoice-sent': '法人プランの請求書の発行（請求先ご担当者宛て）',
  'organization-invoice-overdue': '法人プランの請求書の支払期限超過（法人の管理者宛て）',
  // Forms: to staff, and the sender's acknowledgement.
  'contact-received': 'お問い合わせ（スタッフ宛て）',
  'contact-acknowledged': 'お問い合わせの受付確認',
  'job-posting-received': '求人掲載のお問い合わせ（スタッフ宛て）',
  'job-posting-acknowledged': '求人掲載のお問い合わせの受付確認',
  'partner-application-received': 'パートナープログラムへのお申し込み（スタッフ宛て）',
  'partner-application-acknowledged': 'パートナープログラムへのお申し込みの受付確認',
  // Comments (src/server/features/comments).
  'comments-digest': '新しいコメントのお知らせ（1日分）',
  // Job listings.
  'listing-submitted': '求人の審査依頼（スタッフ宛て）',
  'listing-approved': '求人の承認・公開',
  'listing-returned': '求人の差し戻し',
} as const satisfies Record<string, string>;

export type MailKind = keyof typeof MAIL_KIND_LABELS;

/** The Japanese name of a stored kind, or null for one this version does not know (an old row). */
export function mailKindLabel(kind: string): string | null {
  return Object.hasOwn(MAIL_KIND_LABELS, kind) ? MAIL_KIND_LABELS[kind as MailKind] : null;
}
