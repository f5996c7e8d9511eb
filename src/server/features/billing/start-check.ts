import type { Env } from '@/env';
import { operatorStartRefusal } from '@/server/features/operator';

/**
 * A server database without STRIPE_SECRET_KEY is a production site that would silently take
 * no money: its start is refused unless BILLING_SANDBOX=true says that is meant. Checked by
 * `npm start` before it builds, and by the server as it boots (`npm run dev`, tests of the build).
 */
export function billingStartRefusal(config: Env): string | null {
  if (!config.DATABASE_URL || config.STRIPE_SECRET_KEY || config.BILLING_SANDBOX) return null;
  return (
    'DATABASE_URL が設定されていますが STRIPE_SECRET_KEY がありません。課金しないまま本番で動かさないため、起動を止めました。' +
    '課金をしないテスト環境として動かす場合は BILLING_SANDBOX=true を設定してください。\n' +
    '(DATABASE_URL is set without STRIPE_SECRET_KEY: set STRIPE_SECRET_KEY, or BILLING_SANDBOX=true to run on the billing sandbox.)'
  );
}

/**
 * Every reason to refuse a production start, in one message: billing, and the operator the
 * 特定商取引法 page names (src/server/features/operator). Null when the start may go on.
 */
export function startRefusal(config: Env): string | null {
  const reasons = [billingStartRefusal(config), operatorStartRefusal(config)].filter(
    (reason) => reason !== null,
  );
  return reasons.length > 0 ? reasons.join('\n\n') : null;
}
