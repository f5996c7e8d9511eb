import { z } from '@/lib/zod';

/**
 * The parameters of /biz/axis-admin: `q` (partner search), `page` (partners), `ipage`
 * (inquiries). Anything else, or a value out of shape
 * (a list, a word for a number, a search past 100 characters), is dropped, never an error.
 */

const pageNumber = z
  .string()
  .regex(/^[0-9]{1,4}$/)
  .transform(Number)
  .pipe(z.number().int().min(1))
  .optional()
  .catch(undefined);

const listQuery = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  page: pageNumber,
  ipage: pageNumber,
});

export type AxisAdminQuery = { q: string; page: number; ipage: number };

export function parseAxisAdminQuery(params: Record<string, unknown>): AxisAdminQuery {
  const parsed = listQuery.parse(params);
  return {
    q: parsed.q ?? '',
    page: parsed.page ?? 1,
    ipage: parsed.ipage ?? 1,
  };
}
