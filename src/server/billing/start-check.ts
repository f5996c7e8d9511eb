import type { Env } from '@/env';

/**
 * A server database without STRIPE_SECRET_KEY is a production site that would silently take
 * no money: its start is refused unless BILLING_SANDBOX=true says that is meant. Checked by
 * `npm start` before it builds, and by the server as it boots (`next dev`, tests of the build).
 */
export function billingStartRefusal(config: Env): string | null {
  if (!config.DATABASE_URL || config.STRIPE_SECRET_KEY || config.BILLING_SANDBOX) return null;
  return (
    'DATABASE_URL が設定されていますが STRIPE_SECRET_KEY がありません。課金しないまま本番で動かさないため、起動を止めました。' +
    '課金をしないテスト環境として動かす場合は BILLING_SANDBOX=true を設定してください。\n' +
    '(DATABASE_URL is set without STRIPE_SECRET_KEY: set STRIPE_SECRET_KEY, or BILLING_SANDBOX=true to run on the billing sandbox.)'
  );
}
