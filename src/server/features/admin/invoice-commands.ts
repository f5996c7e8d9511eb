import 'server-only';
import { z } from '@/lib/zod';
import { formatYen } from '@/lib/format';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { usesSandbox } from '@/server/features/billing';
import { fundBankTransfer } from '@/server/features/invoice-billing';
import { organizationById } from '@/server/features/organizations';
import { noteSandboxActivity } from '@/server/services/billing-sandbox/activity';
import { type AdminCommand, UsageError, defineCommand } from './command';

/**
 * 請求書払い's admin command: a bank transfer arriving on a customer's virtual account, as
 * Stripe's test helper `fund_cash_balance` makes one (the sandbox, or Stripe in test mode).
 */

const bankTransfer = defineCommand({
  name: 'billing-bank-transfer',
  summary:
    '請求書払いの顧客のバーチャル口座に銀行振込を入金する (テスト用。全額に満ちた請求書から支払い済みになる)',
  usage: 'billing-bank-transfer (--org ID | --customer cus_…) --amount N',
  args: z
    .object({
      customer: z
        .string()
        .regex(
          /^cus_[A-Za-z0-9]{1,200}$/,
          '--customer は cus_ で始まる顧客 ID で指定してください。',
        )
        .optional(),
      org: z.string().max(100, '--org は法人の ID で指定してください。').optional(),
      amount: z.coerce
        .number({ error: '--amount に金額（円）を指定してください。' })
        .int('--amount は整数（円）で指定してください。')
        .min(1, '--amount は 1 円以上で指定してください。')
        .max(100_000_000, '--amount は 1 億円以下で指定してください。'),
    })
    .strict()
    .refine((args) => (args.customer === undefined) !== (args.org === undefined), {
      message:
        '--org に法人の ID か、--customer に顧客 ID (cus_…) のどちらか一方を指定してください。',
    }),
  async run({ database, actor }, { customer: given, org, amount }) {
    const customer = given ?? (await customerOfOrganization(database.db, org ?? ''));
    const { transaction, held } = await fundBankTransfer(database.db, customer, amount).catch(
      (error: { statusCode?: number; message?: string }) => {
        if (error.statusCode === 404) throw new UsageError(`顧客 ${customer} はありません。`);
        throw error;
      },
    );
    if (usesSandbox()) noteSandboxActivity();
    await recordAudit(database.db, {
      actor,
      action: 'billing.bank_transfer.funded',
      target: `customer:${customer}`,
      detail: { amount, transaction: transaction.id, ...(org ? { organization: org } : {}) },
    });
    return [
      `${customer} のバーチャル口座に ${formatYen(amount)} を入金しました。請求書に充当されずに残っている入金額: ${formatYen(held)}`,
    ];
  },
});

/** The organisation's provider customer: an unknown id, or one whose billing has not started, is refused. */
async function customerOfOrganization(db: Db, id: string): Promise<string> {
  const found = await organizationById(db, id);
  if (!found) throw new UsageError(`ID ${id} の法人はありません。`);
  if (!found.providerCustomerId)
    throw new UsageError(
      `法人「${found.name}」の請求はまだ始まっていません（決済サービスの顧客がありません）。`,
    );
  return found.providerCustomerId;
}

export const invoiceCommands: AdminCommand[] = [bankTransfer];
