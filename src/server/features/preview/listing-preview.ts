import 'server-only';
import { canPreviewListing, type PartnerActor } from '@/server/features/partners';

/**
 * What /jobs/preview/{contentId} shows. Two previews share the address: the editors' draft of
 * a `jobs` item (`?draftKey=`, or staff without a key; the signed cookie is set by
 * /api/preview/jobs/{id}, as before), and a partner's listing (its working copy, for the
 * members of its partner and staff). Everyone else gets the same 404 whether the listing
 * exists or not.
 */

export type JobPreviewDecision =
  { kind: 'draft-key'; location: string } | { kind: 'listing' } | { kind: 'not-found' };

export function jobPreviewDecision(input: {
  contentId: string;
  draftKey: string | null;
  actor: PartnerActor;
  /** The partner listing of that id, when there is one. */
  listing: { partnerId: string } | null;
}): JobPreviewDecision {
  const { contentId, draftKey, actor, listing } = input;
  const route = `/api/preview/jobs/${encodeURIComponent(contentId)}`;
  // The editors' link: the route checks the key against the item, as it always has.
  if (draftKey)
    return { kind: 'draft-key', location: `${route}?draftKey=${encodeURIComponent(draftKey)}` };
  if (listing && canPreviewListing(actor, listing)) return { kind: 'listing' };
  // Staff open an editor's draft without a key (the route checks that they are staff).
  if (!listing && actor.kind === 'staff') return { kind: 'draft-key', location: route };
  return { kind: 'not-found' };
}
