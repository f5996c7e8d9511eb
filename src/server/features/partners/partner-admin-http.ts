import 'server-only';
import { canActForPartner } from '@/server/features/partners/partner-access';
import type { z } from '@/lib/zod';
import { type AppUser, endpoint, type ViewerOption } from '@/server/features/identity';
import {
  type FormInput,
  type FormResult,
  notFoundAnswer,
} from '@/server/platform/http/form-endpoint';
import { clippedFields } from '@/server/platform/http/flash-values';
import { partnerActorFor } from './actor';
import { PARTNER_ID, type PartnerDeps, partnerDeps, updatePartnerProfile } from './partners';

/**
 * POST /api/biz/partner-admin/{partnerId}/profile: a partner's members (and staff) change its
 * description, website and logo. The partner is the one in the URL, never a form field. Anyone
 * else, signed in or not, gets a 404 whether that partner exists or not, before anything is
 * read or written, and with no one-time message: another partner's id is not even confirmed.
 */

// A 2 MB logo with its multipart framing and the text fields.
const MAX_BYTES = 3 * 1024 * 1024;

/** What a plain post's one-time cookie carries back (it must stay under 4 KB). */
const profileFlash = clippedFields({ description: 1800, website: 600 });

/** ?saved= on the dashboard after the profile was saved: it says so. */
export const PROFILE_SAVED = 'profile';

export const dashboardPath = (partnerId: string) =>
  `/biz/partner-admin/${encodeURIComponent(partnerId)}`;

export type PartnerProfileOverrides = ViewerOption & {
  deps?: () => Promise<PartnerDeps>;
};

/** The profile form's endpoint for one partner id (taken from the URL). */
export function partnerProfileEndpoint(
  partnerId: string,
  overrides: PartnerProfileOverrides = {},
): (request: Request) => Promise<Response> {
  return endpoint<z.ZodType<FormInput>, 'optional', AppUser>(
    {
      name: 'partner-admin-profile',
      maxBytes: MAX_BYTES,
      // Not 'user': a visitor gets the page's 404 here too, not a 401 that confirms the route.
      auth: 'optional',
      formPage: dashboardPath(partnerId),
      flashValues: profileFlash,
      // Only a logo makes this form this large.
      messages: { tooLarge: 'ロゴ画像が大きすぎます。2 MB までの画像を選んでください。' },
      ...(overrides.viewer ? { viewer: overrides.viewer } : {}),
    },
    async ({ input, user, request, ip }) => {
      if (!user || !PARTNER_ID.test(partnerId)) return notFoundAnswer(request);
      const deps = await (overrides.deps ?? partnerDeps)();
      const actor = await partnerActorFor(deps.db, user);
      if (!canActForPartner(actor, partnerId)) return notFoundAnswer(request);
      const result: FormResult = await updatePartnerProfile(deps, partnerId, input, {
        userId: user.id,
        ip,
      });
      if (!result.ok && result.status === 404) return notFoundAnswer(request);
      // Back to the dashboard, which then says the profile was saved.
      return result.ok
        ? { ...result, redirectTo: `${dashboardPath(partnerId)}?saved=${PROFILE_SAVED}` }
        : result;
    },
  );
}

export async function handlePartnerProfilePost(
  request: Request,
  partnerId: string,
): Promise<Response> {
  return partnerProfileEndpoint(partnerId)(request);
}
