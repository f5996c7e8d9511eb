import { z } from '@/lib/zod';
import { addresseeName } from '@/components/billing/receipt-addressee';
import { formatNumber } from '@/lib/format';

/**
 * The quote page's query (`?price=price_…&seats=5&addressee=…`): the plan's price the
 * organisation page links with, and the seats and 宛名 the visitor types. Seats: 1–10,000
 * (MAX_SEATS of the invoice-billing feature).
 */

export const QUOTE_MAX_SEATS = 10_000;

const PRICE_ID = /^price_[A-Za-z0-9]{1,200}$/;

const form = z.object({
  seats: z.coerce
    .number({ error: '席数を数字で入力してください。' })
    .int('席数は整数で入力してください。')
    .min(1, '席数は 1 以上で入力してください。')
    .max(QUOTE_MAX_SEATS, `席数は ${formatNumber(QUOTE_MAX_SEATS)} 以下で入力してください。`),
  addressee: addresseeName,
});

export type QuoteQuery =
  | { kind: 'no-price' }
  | { kind: 'form'; priceId: string; seats: string; addressee: string; error: string | null }
  | { kind: 'quote'; priceId: string; seats: number; addressee: string };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function quoteQuery(params: Record<string, string | string[] | undefined>): QuoteQuery {
  const priceId = first(params.price) ?? '';
  if (!PRICE_ID.test(priceId)) return { kind: 'no-price' };
  const seats = first(params.seats);
  const addressee = first(params.addressee);
  if (seats === undefined && addressee === undefined) {
    return { kind: 'form', priceId, seats: '', addressee: '', error: null };
  }
  const parsed = form.safeParse({ seats: seats ?? '', addressee: addressee ?? '' });
  if (!parsed.success) {
    return {
      kind: 'form',
      priceId,
      seats: (seats ?? '').slice(0, 10),
      addressee: (addressee ?? '').slice(0, 100),
      error: parsed.error.issues[0]?.message ?? '入力を確かめてください。',
    };
  }
  return { kind: 'quote', priceId, seats: parsed.data.seats, addressee: parsed.data.addressee };
}
