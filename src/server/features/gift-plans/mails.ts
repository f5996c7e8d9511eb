import 'server-only';
import { env } from '@/env';
import { formatDateJa } from '@/lib/format';
import { GIFT_REDEEM_DAYS, giftRedeemPath } from '@/lib/billing/gift-plans';
import type { Mail } from '@/server/platform/mail/mail';
import { dear, render } from '@/server/platform/mail/templates';

/**
 * The mails of gift subscriptions (docs/decisions/054-gift-subscriptions.md), in the site's
 * template. The delivery mail carries the redeem link, which acts for whoever holds it: it is a
 * secret mail (its kept copy loses the link when the link can no longer be used).
 */

export function giftDeliveryMail(
  to: string,
  gift: {
    giverName: string;
    giverId: string;
    months: number;
    message: string | null;
    token: string;
  },
): Mail {
  const { SITE_NAME, SITE_URL } = env();
  return render(to, {
    kind: 'gift-plan-delivery',
    subject: `${gift.giverName} さんからメンバーシップ ${gift.months}か月分のギフトが届きました`,
    greeting: 'こんにちは。',
    paragraphs: [
      `${gift.giverName} さんから、${SITE_NAME}のメンバーシップ ${gift.months}か月分のギフトが届きました。有料会員限定の記事・音声・動画を、受け取った日から${gift.months}か月間ご利用いただけます。`,
      ...(gift.message ? [`${gift.giverName} さんからのメッセージ：`, gift.message] : []),
      `{action}から、このメールアドレス（${to}）のアカウントでログインまたは無料の会員登録をして受け取ってください。カードの登録は不要で、期間が終わっても自動で更新・請求されることはありません。`,
      `このリンクは送信から${GIFT_REDEEM_DAYS}日間有効です。すでに有料プランをご利用中の方は、次回のお支払い日が${gift.months}か月先に延びます。`,
    ],
    action: {
      label: 'ギフトを受け取る',
      token: {
        url: `${SITE_URL}${giftRedeemPath(gift.token)}`,
        userId: gift.giverId,
        lifetimeSeconds: GIFT_REDEEM_DAYS * 86_400,
      },
    },
    note: 'このメールに心当たりがない場合は、何もせずに破棄してください。',
  });
}

export function giftEndingMail(to: string, name: string, end: Date): Mail {
  return render(to, {
    kind: 'gift-plan-ending',
    subject: 'ギフトのメンバーシップはまもなく終了します',
    greeting: dear(name),
    paragraphs: [
      `ギフトでご利用中のメンバーシップは ${formatDateJa(end)} に終了します。ギフトは自動で更新されず、料金が請求されることもありません。`,
      `終了後も有料会員限定の記事・音声・動画をお読みいただくには、{action}から有料プランをお申し込みください。`,
    ],
    action: { label: '有料プランを見る', url: `${env().SITE_URL}/service-plans` },
  });
}
