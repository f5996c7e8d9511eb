import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { insertObjectIfNew, type SandboxObject } from '../object-store';
import { TAX_RATE_TYPE } from './calendar';

/**
 * Japanese consumption tax, the sandbox's only rate: the tax_rate object, and the tax in or on
 * an amount as invoices and checkout sessions show it.
 */

/** Japan's standard consumption tax; the sandbox's only rate. */
const TAX_PERCENT = 10;
export const TAX_RATE_ID = 'txr_sandbox_jp_consumption_10';

export async function ensureTaxRate(db: Db, created: number): Promise<void> {
  await insertObjectIfNew(db, TAX_RATE_TYPE, {
    id: TAX_RATE_ID,
    object: 'tax_rate',
    active: true,
    country: 'JP',
    created,
    description: '消費税（標準税率）',
    display_name: '消費税',
    effective_percentage: TAX_PERCENT,
    flat_amount: null,
    inclusive: true,
    jurisdiction: 'JP',
    jurisdiction_level: 'country',
    livemode: false,
    metadata: {},
    percentage: TAX_PERCENT,
    rate_type: 'percentage',
    state: null,
    tax_type: 'jct',
  });
}

export type TaxBehavior = 'inclusive' | 'exclusive';

/** A price's tax behaviour; `unspecified` is taken as inclusive, as Japanese prices are shown. */
export function taxBehaviorOf(price: SandboxObject): TaxBehavior {
  return price.tax_behavior === 'exclusive' ? 'exclusive' : 'inclusive';
}

/** Tax in an amount (inclusive) or on it (exclusive), rounded down in yen, sign kept. */
export function taxOf(amount: number, behavior: TaxBehavior): number {
  const base = behavior === 'inclusive' ? 100 + TAX_PERCENT : 100;
  return Math.sign(amount) * Math.floor((Math.abs(amount) * TAX_PERCENT) / base);
}

export function taxEntry(amount: number, behavior: TaxBehavior) {
  const tax = taxOf(amount, behavior);
  return {
    amount: tax,
    tax_behavior: behavior,
    tax_rate_details: { tax_rate: TAX_RATE_ID },
    taxability_reason: 'standard_rated',
    taxable_amount: behavior === 'inclusive' ? amount - tax : amount,
    type: 'tax_rate_details',
  };
}
