import 'server-only';
import { CUSTOMER_TYPE, customerNow } from '../cycle/calendar';
import { cashBalanceOf, fundCashBalance, fundingInstructions } from '../cycle/cash-balance';
import { settleAfterPayment } from '../cycle/subscriptions';
import { invalidRequest } from '../errors';
import { requireObject, type SandboxObject } from '../object-store';
import type { Route, RouteContext } from './route';

/**
 * A customer's cash balance and bank transfers to it (cycle/cash-balance.ts):
 * `POST /v1/customers/:id/funding_instructions` (the virtual account, `jp_bank_transfer` in
 * yen), `GET /v1/customers/:id/cash_balance`, and Stripe's test helper
 * `POST /v1/test_helpers/customers/:id/fund_cash_balance` (a transfer arriving).
 */

const requireCustomer = (context: RouteContext) =>
  requireObject(context.db, CUSTOMER_TYPE, context.id ?? '', { param: 'customer' });

function requireYen(currency: string): void {
  if (currency !== 'jpy') {
    throw invalidRequest(
      'The billing sandbox takes bank transfers in jpy only (jp_bank_transfer).',
      'currency',
    );
  }
}

async function createFundingInstructions(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const customer = await requireCustomer(context);
  const currency = params.requiredString('currency', 3);
  params.oneOf('funding_type', ['bank_transfer'] as const);
  const transfer = params.object('bank_transfer');
  const type = transfer?.string('type', 40);
  transfer?.stringArray('requested_address_types', 5);
  params.finish(transfer);
  if (type !== 'jp_bank_transfer') {
    throw invalidRequest(
      'The billing sandbox gives funding instructions for jp_bank_transfer only.',
      'bank_transfer[type]',
    );
  }
  requireYen(currency);
  // Stripe's funding instructions (and cash balance) have no id: answered as they are.
  return fundingInstructions(customer.id) as SandboxObject;
}

async function retrieveCashBalance(context: RouteContext): Promise<SandboxObject> {
  context.params.finish();
  const customer = await requireCustomer(context);
  const at = await customerNow(context.db, customer);
  return (await cashBalanceOf(context.db, customer.id, at)) as SandboxObject;
}

async function fund(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  await requireCustomer(context);
  const amount = params.integer('amount', 1, 100_000_000);
  const currency = params.requiredString('currency', 3);
  const reference = params.string('reference', 5000) ?? null;
  params.finish();
  if (amount === undefined) throw invalidRequest('Missing required param: amount.', 'amount');
  requireYen(currency);
  return context.db.transaction(async (db) => {
    const customer = await requireObject(db, CUSTOMER_TYPE, context.id ?? '', {
      param: 'customer',
    });
    const at = await customerNow(db, customer, true);
    return fundCashBalance(db, customer, { amount, reference, at }, async (subscription, paid) => {
      await settleAfterPayment(db, subscription, paid, 'paid', at);
    });
  });
}

export const cashBalanceRoutes: Route[] = [
  {
    method: 'POST',
    pattern: ['customers', ':id', 'funding_instructions'],
    handle: createFundingInstructions,
  },
  { method: 'GET', pattern: ['customers', ':id', 'cash_balance'], handle: retrieveCashBalance },
  {
    method: 'POST',
    pattern: ['test_helpers', 'customers', ':id', 'fund_cash_balance'],
    handle: fund,
  },
];
