import 'server-only';
import { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { refusedFields } from '@/server/platform/forms/submit';
import { type ViewerOption, endpoint } from '@/server/features/identity';
import { isOrganizationAdmin, organizationById } from '@/server/features/organizations';
import { cardCheckoutPagePath, startOrganizationCheckout } from './card';
import { billSeatChange } from './organizations';
import { MAX_SEATS } from './subscriptions';

/**
 * POST /api/organization/seats (org, seats): an organisation's admin changes its seats, billed
 * as changeSeats bills them (more: at once, on a prorated invoice sent now; fewer: from the
 * renewal, the seats paid for usable until then). Only that organisation's admins: anyone else
 * gets the bare 404, as for an organisation that is not there.
 */

const ORG_PAGE = '/account/organization';

export function organizationSeatsHandler(options: ViewerOption & { db?: Db } = {}) {
  return endpoint(
    {
      name: 'organization-seats',
      auth: 'user',
      input: z.object({
        org: z.string().max(100),
        seats: z.coerce
          .number({ error: '席数は数字で入力してください。' })
          .int('席数は整数で入力してください。')
          .min(1, '席数は 1 以上にしてください。')
          .max(MAX_SEATS, `席数は ${MAX_SEATS} 以下にしてください。`),
      }),
      formPage: ORG_PAGE,
      maxBytes: 4 * 1024,
      rateLimit: { name: 'organization-seats', max: 20, windowMs: 60 * 60 * 1000 },
      viewer: options.viewer,
    },
    async ({ input, user, ip }) => {
      const db = options.db ?? (await getDb());
      if (!(await isOrganizationAdmin(db, input.org, user.id))) return { ok: false, status: 404 };
      const before = await organizationById(db, input.org);
      if (!before) return { ok: false, status: 404 };
      const changed = await billSeatChange(db, before.id, input.seats, { userId: user.id, ip });
      if (!changed)
        return refusedFields({
          seats: 'お支払いがまだ始まっていないため、席数の変更はサイトの運営者にご連絡ください。',
        });
      const after = await organizationById(db, before.id);
      const page = `${ORG_PAGE}?org=${encodeURIComponent(before.id)}`;
      if (changed.invoiceId)
        return doneAnswer(
          before.billing === 'card'
            ? `席数を ${input.seats} 席にしました。追加した席の今期分（日割り）をカードに請求しました。`
            : `席数を ${input.seats} 席にしました。追加した席の今期分（日割り）の請求書を発行しました。`,
          page,
        );
      return doneAnswer(
        after?.renewalSeats
          ? `次回の更新から ${after.renewalSeats} 席になります。それまでは ${after.seats} 席をお使いいただけます。`
          : `席数は ${after?.seats ?? input.seats} 席です。`,
        page,
      );
    },
  );
}

export const organizationSeatsRoute = organizationSeatsHandler();

/**
 * POST /api/organization/checkout (org) → 303 to the provider's hosted Checkout, where a
 * card-billed organisation's admin pays its seats (card.ts decides the price and the seats,
 * never the form). Only that organisation's admins: anyone else gets the bare 404; an
 * organisation billed by invoice or already paying gets 409 with the reason.
 */
export function organizationCheckoutHandler(options: ViewerOption & { db?: Db } = {}) {
  return endpoint(
    {
      name: 'organization-checkout',
      auth: 'user',
      input: z.object({ org: z.string().max(100) }),
      formPage: (input) => (input ? cardCheckoutPagePath(input.org) : ORG_PAGE),
      maxBytes: 4 * 1024,
      rateLimit: { name: 'organization-checkout', max: 20, windowMs: 60 * 60 * 1000 },
      viewer: options.viewer,
    },
    async ({ input, user, ip }) => {
      const db = options.db ?? (await getDb());
      if (!(await isOrganizationAdmin(db, input.org, user.id))) return { ok: false, status: 404 };
      const started = await startOrganizationCheckout(db, input.org, { userId: user.id, ip });
      if (!started.ok) return started;
      return new Response(null, {
        status: 303,
        headers: { location: started.url, 'cache-control': 'no-store' },
      });
    },
  );
}

export const organizationCheckoutRoute = organizationCheckoutHandler();
