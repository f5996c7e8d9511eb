import 'server-only';
import { GIFT_TOKEN_PATTERN, giftRedeemPath } from '@/lib/billing/gift-plans';
import { formatDateJa } from '@/lib/format';
import { z } from '@/lib/zod';
import { endpoint } from '@/server/features/identity';
import { getDb } from '@/server/platform/db/client';
import { CheckoutRefused } from './checkout';
import { redeemGift } from './gift-redeem';

/**
 * POST /api/billing/gift-redeem (form: token) → the gift granted and on to the account page, which says
 * until when; a refusal goes back to the gift's page with the reason
 * (docs/decisions/054-gift-subscriptions.md). The account is the session's, never the form's.
 */
export const handleGiftRedeem = endpoint(
  {
    name: 'gift-redeem',
    auth: 'user',
    rateLimit: { name: 'gift-redeem', max: 20, windowMs: 60_000 },
    input: z.object({
      token: z.string().regex(GIFT_TOKEN_PATTERN, { error: 'ギフトのリンクが正しくありません。' }),
    }),
    formPage: (input) => (input ? giftRedeemPath(input.token) : '/'),
    messages: { signIn: 'ギフトを受け取るにはログインが必要です。' },
  },
  async ({ input, user, ip }) => {
    const answer = await redeemGift(await getDb(), user, input.token, ip);
    if ('refused' in answer) throw new CheckoutRefused('purchase-refused', answer.refused);
    const { kind, end } = answer.granted;
    return {
      ok: true,
      redirectTo: '/account',
      message:
        kind === 'extension'
          ? `ギフトを受け取りました。次回のお支払い日が${formatDateJa(end)}に延びました。`
          : `ギフトを受け取りました。${formatDateJa(end)}まで有料会員限定のコンテンツをご利用いただけます。`,
    };
  },
);
