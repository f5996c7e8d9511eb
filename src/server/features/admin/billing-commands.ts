import 'server-only';
import { z } from '@/lib/zod';
import { formatYen } from '@/lib/format';
import { recordAudit } from '@/server/platform/audit/audit-log';
import {
  billingProvider,
  customerIdOf,
  syncCatalogue,
  usesSandbox,
} from '@/server/features/billing';
import { noteSandboxActivity } from '@/server/services/billing-sandbox/activity';
import { payOldestKonbiniPayment } from '@/server/services/billing-sandbox/cycle/konbini';
import { sandboxSecretKey } from '@/server/services/billing-sandbox/secret-key';
import { type AdminCommand, UsageError, defineCommand, defineCommandWithoutFlags } from './command';
import { emailField } from '@/server/features/identity';
import { requireUser } from './user-commands';

/**
 * The billing commands: the sandbox's key, clock, failing card and konbini payments, a reader's
 * billing, the plan catalogue.
 */

const DAY = 86_400;

function requireSandbox(): void {
  if (!usesSandbox()) {
    throw new UsageError(
      'STRIPE_SECRET_KEY が設定されているため、課金サンドボックスは使われていません。',
    );
  }
}

const iso = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : '-';

const sandboxKey = defineCommandWithoutFlags({
  name: 'billing-sandbox-key',
  summary: '課金サンドボックスの API キーを表示する (最後の行にキーだけ)',
  async run({ database }) {
    requireSandbox();
    return [
      'Stripe 互換の API: {SITE_URL}/billing-sandbox/v1/… (Authorization: Bearer <key>)',
      await sandboxSecretKey(database.db),
    ];
  },
});

const billingStatus = defineCommand({
  name: 'billing-status',
  summary: '読者のサブスクリプションと請求書を決済サービスから読んで表示する',
  usage: 'billing-status --email E',
  args: z.object({ email: emailField }).strict(),
  async run({ database }, { email }) {
    const user = await requireUser(database.db, email);
    const customerId = await customerIdOf(database.db, user.id);
    if (!customerId) return [`${email} には決済の顧客がまだありません。`];
    const { stripe } = await billingProvider(database.db);
    const customer = await stripe.customers.retrieve(customerId, { expand: ['test_clock'] });
    const lines = [`customer ${customerId}`];
    if (!customer.deleted && customer.test_clock && typeof customer.test_clock === 'object') {
      lines.push(`  test clock ${customer.test_clock.id}: ${iso(customer.test_clock.frozen_time)}`);
    }
    const subscriptions = await stripe.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
    });
    lines.push(`subscriptions: ${subscriptions.data.length}`);
    for (const s of subscriptions.data) {
      const item = s.items.data[0];
      lines.push(
        `  ${s.id}  ${s.status}${s.cancel_at_period_end ? ' (cancel at period end)' : ''}  price=${item?.price.id ?? '-'}  period_end=${iso(item?.current_period_end)}  trial_end=${iso(s.trial_end)}`,
      );
    }
    const invoices = await stripe.invoices.list({ customer: customerId, limit: 100 });
    lines.push(`invoices: ${invoices.data.length}`);
    for (const invoice of invoices.data) {
      lines.push(
        `  ${invoice.id}  ${invoice.number ?? '-'}  ${invoice.status ?? '-'}  ${formatYen(invoice.total)}  ${iso(invoice.created)}`,
      );
    }
    return lines;
  },
});

const billingAdvance = defineCommand({
  name: 'billing-advance',
  summary:
    '課金サンドボックスで読者の時計を進める (更新・体験終了・支払い失敗・期間末の解約が起きる)',
  usage: 'billing-advance --email E --days N',
  args: z.object({ email: emailField, days: z.coerce.number().positive().max(3660) }).strict(),
  async run({ database, actor }, { email, days }) {
    requireSandbox();
    const user = await requireUser(database.db, email);
    const customerId = await customerIdOf(database.db, user.id);
    if (!customerId) throw new UsageError(`${email} には決済の顧客がまだありません。`);
    const { stripe } = await billingProvider(database.db);
    const customer = await stripe.customers.retrieve(customerId);
    const clockId = customer.deleted ? null : customer.test_clock;
    if (typeof clockId !== 'string') throw new UsageError(`${email} の顧客には時計がありません。`);
    const clock = await stripe.testHelpers.testClocks.retrieve(clockId);
    const target = clock.frozen_time + Math.round(days * DAY);
    const advanced = await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: target });
    await recordAudit(database.db, {
      actor,
      action: 'billing.sandbox.advance',
      target: `user:${user.id}`,
      detail: { clock: clockId, from: clock.frozen_time, to: target },
    });
    return [
      `${email} の時計を ${iso(clock.frozen_time)} から ${iso(advanced.frozen_time)} に進めました。`,
    ];
  },
});

/**
 * Stripe's test card that attaches but whose every charge is declined: made the reader's
 * default, their next charge (a trial's end, a renewal) fails, as a real card that stops working.
 */
const FAILING_TEST_CARD = '4000000000000341';

const billingCardFails = defineCommand({
  name: 'billing-card-fails',
  summary:
    '課金サンドボックスで読者のカードを以後の請求がすべて失敗するテストカード (4000 0000 0000 0341) に替える',
  usage: 'billing-card-fails --email E',
  args: z.object({ email: emailField }).strict(),
  async run({ database, actor }, { email }) {
    requireSandbox();
    const user = await requireUser(database.db, email);
    const customerId = await customerIdOf(database.db, user.id);
    if (!customerId) throw new UsageError(`${email} には決済の顧客がまだありません。`);
    const { stripe } = await billingProvider(database.db);
    // The same calls as on Stripe: a card attached and made the default for invoices; a
    // subscription's own card comes first, so it is cleared to let this one be charged.
    const card = await stripe.paymentMethods.create({
      type: 'card',
      card: {
        number: FAILING_TEST_CARD,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 5,
        cvc: '123',
      },
    });
    await stripe.paymentMethods.attach(card.id, { customer: customerId });
    await stripe.customers.update(customerId, {
      invoice_settings: { default_payment_method: card.id },
    });
    const live = await stripe.subscriptions.list({ customer: customerId, limit: 100 });
    for (const subscription of live.data) {
      if (subscription.default_payment_method) {
        await stripe.subscriptions.update(subscription.id, { default_payment_method: '' });
      }
    }
    await recordAudit(database.db, {
      actor,
      action: 'billing.sandbox.card_fails',
      target: `user:${user.id}`,
      detail: { customer: customerId, paymentMethod: card.id },
    });
    return [`${email} のカードを 4000 0000 0000 0341 に替えました。以後の請求は失敗します。`];
  },
});

/**
 * What a reader does at the konbini till, in the sandbox: the oldest open konbini payment of
 * that e-mail (the customer's, or the checkout's customer_email) is paid, as Stripe's test mode
 * pays one by itself after a while; its webhooks follow.
 */
const billingKonbiniPay = defineCommand({
  name: 'billing-konbini-pay',
  summary:
    '課金サンドボックスで、メールアドレスのいちばん古い未払いのコンビニ払いを支払い済みにする',
  usage: 'billing-konbini-pay --email E',
  args: z.object({ email: emailField }).strict(),
  async run({ database, actor }, { email }) {
    requireSandbox();
    const paid = await payOldestKonbiniPayment(database.db, email);
    if (!paid) {
      throw new UsageError(
        `${email} の未払いのコンビニ払いはありません（支払い済み・期限切れのものは対象外です）。`,
      );
    }
    noteSandboxActivity();
    await recordAudit(database.db, {
      actor,
      action: 'billing.sandbox.konbini_pay',
      target: `payment_intent:${paid.id}`,
      detail: { email, amount: paid.amount },
    });
    return [
      `${email} のコンビニ払い ${paid.id}（${formatYen(Number(paid.amount))}）をファミリーマートで支払いました。`,
    ];
  },
});

const syncPlans = defineCommandWithoutFlags({
  name: 'billing-sync-plans',
  summary: 'プランの価格を決済サービスから読み直す (STRIPE_PRICE_MONTHLY / STRIPE_PRICE_YEARLY)',
  async run({ database }) {
    const plans = await syncCatalogue(database.db);
    return plans.map(
      (plan) =>
        `${plan.key}: ${plan.name}  ${formatYen(plan.amount)}/${plan.interval}  ${plan.priceId}${plan.active ? '' : ' (inactive)'}`,
    );
  },
});

export const billingCommands: AdminCommand[] = [
  sandboxKey,
  billingStatus,
  billingAdvance,
  billingCardFails,
  billingKonbiniPay,
  syncPlans,
];
