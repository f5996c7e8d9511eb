import 'server-only';
import { z } from '@/lib/zod';

const DAYS_FORMAT_MESSAGE = '日数は半角数字で入力してください（空欄で期限なし）。';

/**
 * How long a complimentary plan lasts, in days (blank or left out: no end), as the admin screen's
 * form and `grant-plan --days` both take it: digits only, so `1e3`, `0x10` or `7.0` is refused
 * rather than read as some number. The number checks run only on digits, so each fault has its
 * own message.
 */
export const grantDays = z
  .string({ error: DAYS_FORMAT_MESSAGE })
  .trim()
  .regex(/^[0-9]{0,5}$/, { error: DAYS_FORMAT_MESSAGE })
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .pipe(
    z
      .number()
      .int()
      .min(1, { error: '日数は 1 以上で入力してください（空欄で期限なし）。' })
      .max(36_500, { error: '日数は 36500 日（約100年）以内で入力してください。' })
      .optional(),
  );
