import { z } from '@/lib/zod';
import {
  HONORIFICS,
  RECEIPT_ADDRESSEE_MAX,
  type ReceiptAddressee,
} from '@/components/billing/receipt-view';

/**
 * Control and format characters (line breaks, bidirectional overrides, zero-width marks): a
 * name on one line that reads as it prints, nothing that could reorder or hide text.
 */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** A name a document prints as its addressee (宛名): one line, up to RECEIPT_ADDRESSEE_MAX. */
export const addresseeName = z
  .string()
  .trim()
  .min(1, '宛名を入力してください。')
  .max(RECEIPT_ADDRESSEE_MAX, `宛名は${RECEIPT_ADDRESSEE_MAX}文字以内で入力してください。`)
  .refine((name) => !CONTROL.test(name), '宛名に使えない文字が含まれています。');

const query = z.object({
  addressee: addresseeName,
  honorific: z.enum(HONORIFICS, { error: '敬称は「様」か「御中」から選んでください。' }),
});

/**
 * The addressee a receipt prints, from its page's query (`?addressee=…&honorific=…`): the
 * reader's own name with 様 when none is asked for; on a value it cannot print, the same
 * default and the reason, in Japanese.
 */
export function receiptAddressee(
  params: Record<string, string | string[] | undefined>,
  readerName: string,
): { addressee: ReceiptAddressee; error: string | null } {
  const fallback: ReceiptAddressee = { name: readerName, honorific: '様' };
  if (params.addressee === undefined && params.honorific === undefined) {
    return { addressee: fallback, error: null };
  }
  const parsed = query.safeParse({
    addressee: params.addressee,
    honorific: params.honorific ?? '様',
  });
  if (!parsed.success) {
    return {
      addressee: fallback,
      error: parsed.error.issues[0]?.message ?? '宛名を指定し直してください。',
    };
  }
  return {
    addressee: { name: parsed.data.addressee, honorific: parsed.data.honorific },
    error: null,
  };
}
