import { formatYen, formatNumber } from '@/lib/format';
import { z } from '@/lib/zod';

/**
 * Tips (チップ, docs/decisions/053-one-time-payments.md): what the post's tip block, the final
 * confirmation screen and the checkout endpoint share — the amount rule, the message rule and
 * the addresses. The amount is the reader's own choice, so unlike a post's price it comes from
 * the form: it is validated here, at the boundary, and the ledger row and the session carry
 * exactly the validated amount.
 */

/** Whole yen from ¥100 to ¥10,000, tax included. */
export const TIP_MIN = 100;
export const TIP_MAX = 10_000;
/** The amounts offered with one click; any other in range can be typed. */
export const TIP_PRESETS = [100, 500, 1_000, 3_000] as const;
/** The message to the editors, in characters (after trimming). */
export const TIP_MESSAGE_MAX = 500;

export const TIP_AMOUNT_MESSAGE = `チップの金額は ${formatYen(TIP_MIN)} から ${formatYen(TIP_MAX)} までの1円単位で指定してください。`;

/**
 * A tip's amount as a form sends it: digits only (full-width digits and the thousands commas a
 * Japanese keyboard types are read as written), in range; anything else is refused with one
 * clear message — never rounded, clamped or read as another number.
 */
export const tipAmountSchema = z
  .union([z.string(), z.number()], { error: TIP_AMOUNT_MESSAGE })
  .transform((value, ctx) => {
    const text = String(value).normalize('NFKC').trim().replaceAll(',', '');
    const amount = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(amount) || amount < TIP_MIN || amount > TIP_MAX) {
      ctx.addIssue({ code: 'custom', message: TIP_AMOUNT_MESSAGE });
      return z.NEVER;
    }
    return amount;
  });

/** The optional message to the editors: trimmed, line ends made one, '' → null. */
export const tipMessageSchema = z
  .string({ error: 'メッセージは文字で入力してください。' })
  .optional()
  .transform((value) => value?.replace(/\r\n?/g, '\n').trim() || null)
  .refine((value) => value === null || [...value].length <= TIP_MESSAGE_MAX, {
    error: `メッセージは${formatNumber(TIP_MESSAGE_MAX)}文字以内で入力してください。`,
  });

/** A post's id as the content service names it. */
export const TIP_POST_ID = /^[A-Za-z0-9_-]{1,50}$/;

/**
 * What the tip block's plain GET form sends the confirmation screen: a preset (`amount`) or a
 * typed amount (`other`, which wins when filled in), and the message. The parsed tip, or the
 * reason it cannot be one (shown beside the form to change it).
 */
export function readTipQuery(
  query: Record<string, string | string[] | undefined>,
):
  | { ok: true; amount: number; message: string | null }
  | { ok: false; error: string; amount: string; message: string } {
  const one = (key: string) => {
    const value = query[key];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  const typed = one('other').trim();
  const rawAmount = typed || one('amount');
  const rawMessage = one('message');
  const amount = tipAmountSchema.safeParse(rawAmount);
  const message = tipMessageSchema.safeParse(rawMessage);
  if (amount.success && message.success)
    return { ok: true, amount: amount.data, message: message.data };
  const error = (!amount.success ? amount.error : message.error!).issues[0]!.message;
  return { ok: false, error, amount: rawAmount, message: rawMessage };
}

/** The tip's final confirmation screen, with the choice filled in (the block's GET target). */
export function tipConfirmPath(
  contentId: string,
  choice?: { amount?: number | string; message?: string | null },
): string {
  const query = new URLSearchParams();
  if (choice?.amount !== undefined && choice.amount !== '')
    query.set('amount', String(choice.amount));
  if (choice?.message) query.set('message', choice.message);
  const search = query.toString();
  return `/purchase/tip/${encodeURIComponent(contentId)}${search ? `?${search}` : ''}`;
}

/** 「記事「…」へのチップ」: what the reader paid for, on every screen and the receipt. */
export const tipName = (title: string) => `記事「${title}」へのチップ`;
