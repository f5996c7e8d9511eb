import 'server-only';
import { z, fieldErrors } from '@/lib/zod';
import { FORM_KEY } from '@/lib/http/form-flash';
import { getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { gatedEndpoint, isAdmin, type ViewerOption } from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import { refusedFields } from '@/server/platform/forms/submit';
import { METERED_MAX, setMeteredAllowance } from '@/server/features/metered';

/**
 * The route handler of /admin/settings, under /api/admin/settings: the site settings an admin
 * changes (the first: the metered wall's monthly allowance, docs/decisions/055-metered-wall.md).
 * Admins only: anyone else gets the bare 404, before the input is read. Each change is audited
 * (`setting-changed`, the old and new value, the admin and the client's address).
 */

export const SETTINGS_PAGE = '/admin/settings';
export const SETTINGS_FORM_KEY = 'site-settings';

const settingsInput = z.object({
  meteredReadsPerMonth: z
    .string()
    .trim()
    .regex(/^[0-9]{1,3}$/, { message: `0〜${METERED_MAX} の整数で入力してください` })
    .transform(Number)
    .pipe(z.number().max(METERED_MAX, { message: `0〜${METERED_MAX} の整数で入力してください` })),
});

export function settingsHandlers(options: ViewerOption = {}) {
  return {
    /** POST /api/admin/settings: meteredReadsPerMonth. */
    update: gatedEndpoint(
      {
        name: 'admin-settings',
        formPage: SETTINGS_PAGE,
        maxBytes: 4 * 1024,
        flashValues: clippedFields({ [FORM_KEY]: 40, meteredReadsPerMonth: 10 }),
        viewer: options.viewer,
      },
      isAdmin,
      async ({ input, actor, ip }) => {
        const parsed = settingsInput.safeParse(input);
        if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
        const to = parsed.data.meteredReadsPerMonth;
        await setMeteredAllowance(await getDb(), to, { actor, ip });
        return doneAnswer(
          to > 0
            ? `無料会員が毎月読める会員限定記事を${to}本にしました。`
            : '無料会員が読める会員限定記事の本数を 0 にしました（メーター制はオフです）。',
          SETTINGS_PAGE,
        );
      },
    ),
  };
}

export const settingsRoutes = settingsHandlers();
