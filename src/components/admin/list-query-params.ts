import { z } from '@/lib/zod';

/**
 * The parameters the staff lists share (/admin/users, /admin/audit, /admin/media,
 * /biz/axis-admin): each drops a value out of shape (a list, a word for a number, text past its
 * length) instead of failing, so the page shows its unfiltered first page.
 */

/** A page number: at most `digits` digits, a whole number from 1. */
export const pageNumberParam = (digits: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9]{1,${digits}}$`))
    .transform(Number)
    .pipe(z.number().int().min(1))
    .optional()
    .catch(undefined);

/** A search text: trimmed, at most 100 characters. */
export const searchTextParam = z.string().trim().max(100).optional().catch(undefined);
