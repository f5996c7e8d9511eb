import 'server-only';
import { createHash } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { recordEvent } from '../events';
import {
  findAllObjects,
  findObjectForUpdate,
  insertObjectIfNew,
  newObjectId,
  type SandboxObject,
  saveObject,
} from '../object-store';
import { CUSTOMER_TYPE, INVOICE_TYPE, num, SUBSCRIPTION_TYPE, subscriptionIdOf } from './calendar';
import { paidInvoice } from './payments';

/**
 * A customer's cash balance (Stripe's `customer_balance` payment method): bank transfers to the
 * customer's virtual account (its Zengin address) land here, and with automatic reconciliation
 * (Stripe's default) pay its open invoices that accept `customer_balance`. As on Stripe, an
 * invoice is never partly funded: a transfer short of an invoice stays in the balance until
 * later transfers cover the whole amount due.
 */

/** What the sandbox keeps beside the customer (never answered as such). */
export const CASH_BALANCE_TYPE = 'sandbox.cash_balance';
const cashBalanceId = (customerId: string) => `cashbalance_${customerId}`;

/** The sandbox's bank: a test bank of its own, so no real account is ever named. */
const SANDBOX_BANK = { bank_code: '0999', bank_name: 'サンドボックス銀行' };
const ACCOUNT_HOLDER = 'ｻﾝﾄﾞﾎﾞﾂｸｽ ｼﾕｳﾉｳｸﾞﾁ';

const EMPTY_ADDRESS = {
  city: null,
  country: 'JP',
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
};

/** The customer's virtual account: the same for every invoice, derived from its id. */
export function zenginAddress(customerId: string) {
  const digits = BigInt(`0x${createHash('sha256').update(customerId).digest('hex')}`).toString();
  const branch = 100 + (Number(digits.slice(0, 3)) % 900);
  return {
    account_holder_address: EMPTY_ADDRESS,
    account_holder_name: ACCOUNT_HOLDER,
    account_number: digits.slice(3, 10).padStart(7, '0'),
    account_type: 'futsu',
    bank_address: EMPTY_ADDRESS,
    ...SANDBOX_BANK,
    branch_code: String(branch),
    branch_name: `法人第${String(branch)}支店`,
  };
}

/** `funding_instructions` for a yen bank transfer, as `customers.createFundingInstructions` answers. */
export function fundingInstructions(customerId: string): Record<string, unknown> {
  return {
    object: 'funding_instructions',
    bank_transfer: {
      country: 'JP',
      financial_addresses: [
        { type: 'zengin', supported_networks: ['zengin'], zengin: zenginAddress(customerId) },
      ],
      type: 'jp_bank_transfer',
    },
    currency: 'jpy',
    funding_type: 'bank_transfer',
    livemode: false,
  };
}

/** The customer's held yen, read under its row lock when `lock` (a transfer or a payment). */
async function balanceRow(db: Db, customerId: string, at: number): Promise<SandboxObject> {
  const id = cashBalanceId(customerId);
  await insertObjectIfNew(db, CASH_BALANCE_TYPE, {
    id,
    object: CASH_BALANCE_TYPE,
    created: at,
    customer: customerId,
    available: 0,
  });
  const row = await findObjectForUpdate(db, CASH_BALANCE_TYPE, id);
  if (!row) throw new Error(`billing sandbox: no cash balance for ${customerId}`);
  return row;
}

/** Stripe's `cash_balance` object of the customer (`GET /v1/customers/:id/cash_balance`). */
export async function cashBalanceOf(db: Db, customerId: string, at: number) {
  const row = await balanceRow(db, customerId, at);
  const available = num(row, 'available');
  return {
    object: 'cash_balance',
    available: available > 0 ? { jpy: available } : { jpy: 0 },
    customer: customerId,
    customer_account: null,
    livemode: false,
    settings: { reconciliation_mode: 'automatic', using_merchant_default: true },
  } as Record<string, unknown>;
}

async function recordTransaction(
  db: Db,
  customerId: string,
  at: number,
  change: { net: number; ending: number; detail: Record<string, unknown> },
): Promise<SandboxObject> {
  const transaction: SandboxObject = {
    id: newObjectId('ccsbtxn'),
    object: 'customer_cash_balance_transaction',
    created: at,
    currency: 'jpy',
    customer: customerId,
    customer_account: null,
    ending_balance: change.ending,
    livemode: false,
    net_amount: change.net,
    ...change.detail,
  };
  await recordEvent(db, 'customer_cash_balance_transaction.created', transaction, at);
  return transaction;
}

/** Whether an open invoice is one the cash balance pays: sent, and accepting customer_balance. */
export function paidByCashBalance(invoice: SandboxObject): boolean {
  const settings = invoice.payment_settings as { payment_method_types?: unknown } | null;
  const types = settings?.payment_method_types;
  return (
    invoice.status === 'open' &&
    invoice.collection_method === 'send_invoice' &&
    Array.isArray(types) &&
    types.includes('customer_balance')
  );
}

/**
 * Pays the invoice from the customer's cash balance if it holds the whole amount due: an
 * `applied_to_payment` transaction, then `invoice.paid` and `invoice.payment_succeeded`.
 * The caller holds the subscription's and the customer's rows. Answers the invoice as it is.
 */
export async function payFromCashBalance(
  db: Db,
  invoice: SandboxObject,
  at: number,
): Promise<SandboxObject> {
  if (!paidByCashBalance(invoice)) return invoice;
  const customerId = String(invoice.customer);
  const row = await balanceRow(db, customerId, at);
  const due = num(invoice, 'amount_remaining');
  const available = num(row, 'available');
  if (due > available) return invoice;
  await saveObject(db, { ...row, available: available - due });
  await recordTransaction(db, customerId, at, {
    net: -due,
    ending: available - due,
    detail: {
      type: 'applied_to_payment',
      // An invoice's payment is named by ids derived from the invoice's (README, Refunds).
      applied_to_payment: { payment_intent: invoice.id.replace(/^in_/, 'pi_') },
    },
  });
  const paid = paidInvoice(invoice, at, false);
  await saveObject(db, paid);
  await recordEvent(db, 'invoice.paid', paid, at);
  await recordEvent(db, 'invoice.payment_succeeded', paid, at);
  return paid;
}

/**
 * `POST /v1/test_helpers/customers/:id/fund_cash_balance`: a bank transfer of `amount` yen
 * arrives (`funded`, with the sender's free-text `reference`), then the balance pays the
 * customer's open invoices it covers in full, oldest first. `settle` moves each paid invoice's
 * subscription on (past_due → active). Locks: the subscriptions' rows, then the customer's,
 * then the balance's. Answers the `funded` transaction.
 */
export async function fundCashBalance(
  db: Db,
  customer: SandboxObject,
  transfer: { amount: number; reference: string | null; at: number },
  settle: (subscription: SandboxObject, invoice: SandboxObject) => Promise<void>,
): Promise<SandboxObject> {
  const { at } = transfer;
  const open = (
    await findAllObjects(db, INVOICE_TYPE, [
      { field: 'customer', in: [customer.id] },
      { field: 'status', in: ['open'] },
    ])
  ).filter(paidByCashBalance);
  const subscriptions = new Map<string, SandboxObject>();
  for (const invoice of open) {
    const id = subscriptionIdOf(invoice);
    if (!id || subscriptions.has(id)) continue;
    const locked = await findObjectForUpdate(db, SUBSCRIPTION_TYPE, id);
    if (locked) subscriptions.set(id, locked);
  }
  await findObjectForUpdate(db, CUSTOMER_TYPE, customer.id);
  const row = await balanceRow(db, customer.id, at);
  const ending = num(row, 'available') + transfer.amount;
  await saveObject(db, { ...row, available: ending });
  const funded = await recordTransaction(db, customer.id, at, {
    net: transfer.amount,
    ending,
    detail: {
      type: 'funded',
      funded: {
        bank_transfer: {
          jp_bank_transfer: { sender_bank: null, sender_branch: null, sender_name: null },
          reference: transfer.reference,
          type: 'jp_bank_transfer',
        },
      },
    },
  });
  for (const invoice of open) {
    const paid = await payFromCashBalance(db, invoice, at);
    const subscription = subscriptions.get(subscriptionIdOf(invoice) ?? '');
    if (paid.status === 'paid' && subscription) await settle(subscription, paid);
  }
  return funded;
}
