/** Japanese names of the audit log's actions; an action not listed is shown by its raw name. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'sign-up': '会員登録',
  'sign-in': 'ログイン',
  'sign-in-failed': 'ログイン失敗',
  'sign-out': 'ログアウト',
  'password-reset': 'パスワード再設定',
  'email-verified': 'メールアドレス確認',
  'email-change-requested': 'メールアドレス変更の申請',
  'email-changed': 'メールアドレス変更',
  'account-deleted': '退会',
  'newsletter-consent': 'ニュースレター配信の設定',
  'user-created': 'ユーザー作成',
  'role-changed': '権限の変更',
  'plan-granted': '無償プランの付与',
  'plan-revoked': '無償プランの取り消し',
  'partner-changed': 'パートナー企業の変更',
  'sessions-revoked': 'すべての端末からログアウト',
  'mail-secret-read': 'リンク付きメールの閲覧',
  'partner-created': 'パートナー企業の作成',
  'partner-profile-changed': 'パートナー企業情報の変更',
  'partner-contract-changed': 'パートナー契約の変更',
  'job-listing-submitted': '求人の審査申請',
  'job-listing-approved': '求人の承認',
  'job-listing-returned': '求人の差し戻し',
  'job-listing-closed': '求人の掲載終了',
  'api-key-created': 'API キーの作成',
  'api-key-revoked': 'API キーの無効化',
  'media-deleted': 'メディアの削除',
  'billing.checkout.start': '購読手続きの開始',
  'billing.portal.open': '契約管理画面を開く',
  'billing.subscription': '購読の更新（決済）',
  'billing.sandbox.advance': '決済サンドボックスの時刻を進める',
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}
