import 'server-only';
import { z, fieldErrors } from '@/lib/zod';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { createOffer, deactivateOffer, offerInput } from '@/server/features/billing';
import { getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { gatedEndpoint, isAdmin, type ViewerOption } from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import { refusedFields } from '@/server/platform/forms/submit';
import { PLAN_KEYS } from '@/lib/billing/plans';

/**
 * The route handlers of /admin/offers, under /api/admin/offers/**: create an offer (a coupon and
 * its promotion code at the provider), deactivate one. Admins only (the role model has no
 * partnerships role): anyone else gets the bare 404 the page gives, before the input is read.
 * Each change is audited with the admin as actor and the client's address.
 */

export const OFFERS_PAGE = '/admin/offers';

/** The plans' checkboxes: one field each, as a browser posts them. */
export const planField = (key: string) => `plan_${key}`;

export type OffersHttpOptions = ViewerOption;

/** The offer forms' endpoint options: their page, size and one-time values. */
const offerForm = (options: OffersHttpOptions, name: string) => ({
  name,
  formPage: OFFERS_PAGE,
  maxBytes: 8 * 1024,
  flashValues: clippedFields({
    name: 120,
    kind: 20,
    value: 20,
    duration: 20,
    months: 10,
    code: 120,
    expires: 20,
    cap: 20,
    firstTime: 10,
    ...Object.fromEntries(PLAN_KEYS.map((key) => [planField(key), 10])),
  }),
  viewer: options.viewer,
});

const PROMOTION_CODE_ID = z.string().regex(/^promo_[A-Za-z0-9]{1,100}$/);

export function offersHandlers(options: OffersHttpOptions = {}) {
  return {
    /** POST /api/admin/offers: name, kind, value, duration, months, code, expires, cap, firstTime, plan_*. */
    create: gatedEndpoint(
      offerForm(options, 'admin-offer-create'),
      isAdmin,
      async ({ input, actor, ip }) => {
        const parsed = offerInput.safeParse({
          ...input,
          plans: PLAN_KEYS.filter((key) => input[planField(key)] !== undefined),
        });
        if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
        const db = await getDb();
        const made = await createOffer(db, parsed.data);
        if (!made.ok) return refusedFields(made.fieldErrors);
        await recordAudit(db, {
          actor,
          action: 'offer-created',
          target: `promotion_code:${made.offer.id}`,
          ip,
          detail: { ...parsed.data },
        });
        return doneAnswer(
          `オファー「${made.offer.name}」（コード ${made.offer.code}）を作成しました。`,
          OFFERS_PAGE,
        );
      },
    ),

    /** POST /api/admin/offers/{id}/deactivate. */
    deactivate: (request: Request, id: string) =>
      gatedEndpoint(
        offerForm(options, 'admin-offer-deactivate'),
        isAdmin,
        async ({ actor, ip }) => {
          if (!PROMOTION_CODE_ID.safeParse(id).success) return { ok: false, status: 404 };
          const db = await getDb();
          const offer = await deactivateOffer(db, id);
          if (!offer) return { ok: false, status: 404 };
          await recordAudit(db, {
            actor,
            action: 'offer-deactivated',
            target: `promotion_code:${id}`,
            ip,
            detail: { code: offer.code },
          });
          return doneAnswer(
            `コード ${offer.code} を無効にしました。このコードではもう申し込めません。`,
            OFFERS_PAGE,
          );
        },
      )(request),
  };
}

export const offersRoutes = offersHandlers();
