import 'server-only';
import { INQUIRY_STATES, INQUIRY_STATE_LABELS } from '@/lib/inquiries';
import { z } from '@/lib/zod';
import { canRunPartnerProgramme } from '@/server/features/partners/partner-access';
import { getDb } from '@/server/platform/db/client';
import { gatedEndpoint, type ViewerOption } from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import {
  type FormInput,
  type FormResult,
  refererPage,
  NOT_FOUND_MESSAGE,
} from '@/server/platform/http/form-endpoint';
import { setInquiryState } from '@/server/features/inquiries';
import {
  LISTING_ID,
  closeListing,
  getListing,
  listingDeps,
  reviewListing,
} from '@/server/features/partners/jobs/listings';
import type { Actor } from '@/server/platform/audit/audit-log';
import { partnerActorFor } from './actor';
import { addMember, removeMember } from './members';
import { PARTNER_ID, createPartner, getPartner, partnerDeps, updatePartner } from './partners';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { refusedFields } from '@/server/platform/forms/submit';

/**
 * The route handlers of the programme's staff screens (/biz/axis-admin), under
 * /api/biz/axis-admin/**. Staff only: anyone else, signed in or not, is answered 404, as the
 * pages are (a bare 404, even to a plain post), so no one learns that a partner, listing or
 * inquiry exists. Every id from the path or a field is checked and looked up before a service
 * acts on it. A plain post gets a 303 back to its screen with a one-time message: what was
 * done, or what failed with the field errors and typed values. `formKey` (a hidden field)
 * travels back with a failure, so the screen puts the errors beside the right form.
 */

export const AXIS_ADMIN = '/biz/axis-admin';

export const partnerPage = (partnerId: string) => `${AXIS_ADMIN}/${partnerId}`;

/**
 * Success: on to `to`, with the service's message in a one-time cookie that the screen shows
 * once (src/lib/http/flash.ts), for fetch and plain posts alike.
 *
 * `to` carries a #fragment only for the plain forms (a row's button): the site's fetch forms
 * move on with location.assign, and a URL that differs from the current one only by its
 * fragment would scroll instead of loading the page anew.
 */
function succeeded(result: FormResult, to: string): FormResult {
  return result.ok ? doneAnswer(result.message ?? '保存しました。', to) : result;
}

const NOT_FOUND: FormResult = { ok: false, status: 404, message: NOT_FOUND_MESSAGE };

// A 2 MB logo in a multipart body, with the form's text around it.
const PARTNER_FORM_MAX_BYTES = 3 * 1024 * 1024;
// The other forms carry a few fields; a return comment of 2,000 Japanese characters is ~18 KB
// percent-encoded.
const SMALL_FORM_MAX_BYTES = 32 * 1024;

// A browser drops a cookie past 4 KB whole: the typed values (base64, with the messages) stay
// under it even when every field of the partner form is long and wrong.
const SHORT = 300;
const partnerFlash = clippedFields({
  formKey: 100,
  name: SHORT,
  description: 1200,
  website: SHORT,
  contractStart: 40,
  contractEnd: 40,
  listingQuota: 20,
});
const memberFlash = clippedFields({ formKey: 100, intent: 20, email: SHORT });
const reviewFlash = clippedFields({ formKey: 100, decision: 20, comment: 1500 });
const keyOnlyFlash = clippedFields({ formKey: 100, state: 40 });

export type AxisAdminOptions = ViewerOption;

type StaffContext = { input: FormInput; request: Request; actor: Actor };

type StaffEndpoint = {
  name: string;
  formPage: string;
  maxBytes: number;
  flashValues: (raw: FormInput) => FormInput;
};

/**
 * gatedEndpoint() for the programme's staff: no such partner, listing, member or inquiry gets
 * the same 404 as a stranger.
 */
function staffEndpoint(
  options: AxisAdminOptions,
  spec: StaffEndpoint,
  handler: (ctx: StaffContext) => Promise<FormResult>,
): (request: Request) => Promise<Response> {
  return gatedEndpoint(
    { ...spec, viewer: options.viewer },
    async (user) => canRunPartnerProgramme(await partnerActorFor(await getDb(), user)),
    ({ input, request, user, ip }) => handler({ input, request, actor: { userId: user.id, ip } }),
  );
}

/** A partner's id from the path, as a partner (name for the messages), or null. */
async function partnerFromPath(partnerId: string) {
  if (!PARTNER_ID.test(partnerId)) return null;
  return getPartner(await partnerDeps(), partnerId);
}

/** A listing's id from the path, as the listing with the services' deps, or null. */
async function listingFromPath(listingId: string) {
  if (!LISTING_ID.test(listingId)) return null;
  const deps = await listingDeps();
  const listing = await getListing(deps.db, listingId);
  return listing ? { deps, listing } : null;
}

/** A form on a partner's page: a failure goes back there (to the list for an id that is none). */
const onPartnerPage = (partnerId: string, spec: Omit<StaffEndpoint, 'formPage'>) => ({
  ...spec,
  formPage: PARTNER_ID.test(partnerId) ? partnerPage(partnerId) : AXIS_ADMIN,
});

/** A staff form about one listing, found from the path (a 404 when it is none); back to the list. */
const listingForm =
  (
    options: AxisAdminOptions,
    spec: Omit<StaffEndpoint, 'formPage' | 'maxBytes'>,
    act: (
      found: NonNullable<Awaited<ReturnType<typeof listingFromPath>>>,
      ctx: StaffContext,
    ) => Promise<FormResult>,
  ) =>
  (request: Request, listingId: string) =>
    staffEndpoint(
      options,
      { ...spec, formPage: AXIS_ADMIN, maxBytes: SMALL_FORM_MAX_BYTES },
      async (ctx) => {
        const found = await listingFromPath(listingId);
        return found ? act(found, ctx) : NOT_FOUND;
      },
    )(request);

const memberIntent = z.enum(['add', 'remove']);
const inquiryStateField = z.enum(INQUIRY_STATES, { error: '対応状況を一覧から選んでください。' });

/** The handlers, given how to find the viewer (tests); the routes use `axisAdminRoutes`. */
export function axisAdminHandlers(options: AxisAdminOptions = {}) {
  return {
    /** POST /api/biz/axis-admin/partners: a new partner with its contract. */
    createPartner: staffEndpoint(
      options,
      {
        name: 'axis-admin-create-partner',
        formPage: `${AXIS_ADMIN}/new`,
        maxBytes: PARTNER_FORM_MAX_BYTES,
        flashValues: partnerFlash,
      },
      async ({ input, actor }) => {
        const result = await createPartner(await partnerDeps(), input, actor);
        // The service sends staff on to the new partner's page.
        return result.ok ? succeeded(result, result.redirectTo ?? AXIS_ADMIN) : result;
      },
    ),

    /** POST /api/biz/axis-admin/partners/{partnerId}: its profile and contract. */
    updatePartner: (request: Request, partnerId: string) =>
      staffEndpoint(
        options,
        onPartnerPage(partnerId, {
          name: 'axis-admin-update-partner',
          maxBytes: PARTNER_FORM_MAX_BYTES,
          flashValues: partnerFlash,
        }),
        async ({ input, actor }) => {
          if (!PARTNER_ID.test(partnerId)) return NOT_FOUND;
          const result = await updatePartner(await partnerDeps(), partnerId, input, actor);
          return succeeded(result, partnerPage(partnerId));
        },
      )(request),

    /** POST /api/biz/axis-admin/partners/{partnerId}/members: intent add (email) | remove (userId). */
    members: (request: Request, partnerId: string) =>
      staffEndpoint(
        options,
        onPartnerPage(partnerId, {
          name: 'axis-admin-members',
          maxBytes: SMALL_FORM_MAX_BYTES,
          flashValues: memberFlash,
        }),
        async ({ input, actor }) => {
          const partner = await partnerFromPath(partnerId);
          if (!partner) return NOT_FOUND;
          const intent = memberIntent.safeParse(input.intent);
          if (!intent.success) return refusedFields({ form: '操作を読み取れませんでした。' });
          const db = await getDb();
          // removeMember acts only on a member of this partner: another partner's user is a 404.
          const result =
            intent.data === 'add'
              ? await addMember(db, partner, input, actor)
              : await removeMember(db, partner, input, actor);
          // Adding is a fetch form, removing a row's plain button (see `succeeded`).
          return intent.data === 'add'
            ? succeeded(result, partnerPage(partner.id))
            : succeeded(result, `${partnerPage(partner.id)}#members`);
        },
      )(request),

    /** POST /api/biz/axis-admin/listings/{id}/review: approve, or return with a comment. */
    reviewListing: listingForm(
      options,
      { name: 'axis-admin-review-listing', flashValues: reviewFlash },
      async ({ deps, listing }, { input, actor }) =>
        succeeded(
          await reviewListing(deps, listing.id, input, actor),
          partnerPage(listing.partnerId),
        ),
    ),

    /** POST /api/biz/axis-admin/listings/{id}/close: ends a live listing today. */
    closeListing: listingForm(
      options,
      { name: 'axis-admin-close-listing', flashValues: keyOnlyFlash },
      async ({ deps, listing }, { input, actor }) =>
        // The listing's own partner: staff may close any listing, and only as that one's.
        succeeded(
          await closeListing(deps, listing.partnerId, listing.id, input, actor),
          `${partnerPage(listing.partnerId)}#listing-${listing.id}`,
        ),
    ),

    /** POST /api/biz/axis-admin/inquiries/{id}: new → in progress → done. */
    inquiryState: (request: Request, inquiryId: string) =>
      staffEndpoint(
        options,
        {
          name: 'axis-admin-inquiry-state',
          formPage: AXIS_ADMIN,
          maxBytes: SMALL_FORM_MAX_BYTES,
          flashValues: keyOnlyFlash,
        },
        async ({ input, request: req }) => {
          if (!z.uuid().safeParse(inquiryId).success) return NOT_FOUND;
          const state = inquiryStateField.safeParse(input.state);
          if (!state.success)
            return refusedFields({
              state: state.error.issues[0]?.message ?? '対応状況を選んでください。',
            });
          if (!(await setInquiryState(await getDb(), inquiryId, state.data))) return NOT_FOUND;
          const label = INQUIRY_STATE_LABELS[state.data];
          return succeeded(
            { ok: true, message: `対応状況を「${label}」にしました。` },
            `${listPageOf(req)}#inquiry-${inquiryId}`,
          );
        },
      )(request),
  };
}

/** The list page a form was posted from, with its search and pages, or the bare list. */
function listPageOf(request: Request): string {
  const from = refererPage(request);
  if (!from) return AXIS_ADMIN;
  const url = new URL(from, 'http://axis.invalid');
  return url.pathname === AXIS_ADMIN ? `${url.pathname}${url.search}` : AXIS_ADMIN;
}

export const axisAdminRoutes = axisAdminHandlers();
