import 'server-only';
import type { SubscriptionRecord, SubscriptionStatus } from '@/lib/auth-state';
import { type Role, STAFF_ROLES } from '@/server/identity/roles';
import { leadOf } from './lead';

/**
 * The access policy: the one place that decides, for a viewer and an item, what of the item may
 * leave the server (DESIGN.md "Who reads what"). Pages, search snippets and the feed render
 * only what `postFor`, `audioFor`, `movieFor` and `connectFor` hand them: the whole item, or the
 * item with its gated part cut (body → lead, transcript → lead, media file and embed removed)
 * and the call to action for the paywall.
 *
 * Public-preview posts are open to everyone; members' posts in full to paid users, and to
 * signed-in free users for the 3 newest (the free-plan list). Audio and movie files: paid users
 * only. Connect: signed-in users. Staff (editor, admin) and preview mode read everything.
 * Paid readers are decided by `hasPaidAccess` from their subscriptions; partners are members
 * like any other, paid or not by their plan.
 */

export type Viewer =
  | { kind: 'anonymous' }
  | { kind: 'member'; paid: boolean }
  /** Editors and admins. */
  | { kind: 'staff' }
  /** Staff and holders of a valid draft key, in preview mode. */
  | { kind: 'preview' };

/** Subscription statuses that keep the paid pages open (DESIGN.md "past_due"). */
const PAID_STATUSES: ReadonlySet<SubscriptionStatus> = new Set(['active', 'trialing', 'past_due']);

/**
 * Whether a reader's subscriptions open the paid pages: the one place that decides it. A plan
 * being paid (active, trialing) or whose payment the provider is still retrying (past_due)
 * keeps access, as Ghost does; canceled, unpaid, incomplete and paused do not; a plan set to
 * cancel at its period end keeps it until that end. SPEC §4's `isPaidUser` stays literal
 * (active or trialing): it is what the account screens say, not who may read.
 */
export function hasPaidAccess(
  subscriptions: readonly Pick<
    SubscriptionRecord,
    'status' | 'cancel_at_period_end' | 'current_period_end'
  >[],
  now: Date = new Date(),
): boolean {
  return subscriptions.some((s) => {
    if (!PAID_STATUSES.has(s.status)) return false;
    if (!s.cancel_at_period_end || !s.current_period_end) return true;
    return new Date(s.current_period_end).getTime() > now.getTime();
  });
}

/**
 * The viewer a signed-in user (or nobody) is for the policy: staff by role, otherwise a member,
 * paid when their subscriptions open the paid pages. Partnership changes nothing.
 */
export function viewerOf(
  user: { role: Role } | null,
  subscriptions: Parameters<typeof hasPaidAccess>[0],
  now?: Date,
): Viewer {
  if (!user) return { kind: 'anonymous' };
  if (STAFF_ROLES.includes(user.role)) return { kind: 'staff' };
  return { kind: 'member', paid: hasPaidAccess(subscriptions, now) };
}

/**
 * What a viewer without full access is asked to do next: sign up (or sign in: the paywall offers
 * both) when anonymous, subscribe when signed in.
 */
export type CallToAction = 'sign-up' | 'subscribe';

/** The policy's decision for one item. */
export type Access = { full: true } | { full: false; cta: CallToAction };

/** What of an item may leave the server: all of it, or its open part and a call to action. */
export type Gated<Full, Partial = Full> =
  { full: true; item: Full } | { full: false; item: Partial; cta: CallToAction };

const FULL: Access = { full: true };
const closedTo = (viewer: Viewer): Access => ({
  full: false,
  cta: viewer.kind === 'anonymous' ? 'sign-up' : 'subscribe',
});
const opensAll = (viewer: Viewer) => viewer.kind === 'preview' || viewer.kind === 'staff';

export function postAccess(
  viewer: Viewer,
  post: { id: string; isPublicPreview: boolean },
  freePlanPostIds: readonly string[],
): Access {
  if (post.isPublicPreview || opensAll(viewer)) return FULL;
  if (viewer.kind === 'member' && (viewer.paid || freePlanPostIds.includes(post.id))) return FULL;
  return closedTo(viewer);
}

/**
 * Audio and movie files (and a movie's embed, an audio's transcript): paid readers, staff and
 * preview; everyone for a public-preview item. The pages are public.
 */
export function mediaAccess(viewer: Viewer, item: { isPublicPreview: boolean }): Access {
  if (item.isPublicPreview || opensAll(viewer)) return FULL;
  if (viewer.kind === 'member' && viewer.paid) return FULL;
  return closedTo(viewer);
}

/** Connect (the community area): every signed-in reader. */
export function connectAccess(viewer: Viewer): Access {
  return viewer.kind === 'anonymous' ? closedTo(viewer) : FULL;
}

/** Rich text cut to its lead; an absent one stays absent. */
const leadOfOptional = (html: string | undefined) =>
  html === undefined ? undefined : leadOf(html);

/** A post for a viewer: without full access, its body is the lead. */
export function postFor<T extends { id: string; isPublicPreview: boolean; body?: string }>(
  viewer: Viewer,
  post: T,
  freePlanPostIds: readonly string[],
): Gated<T> {
  const access = postAccess(viewer, post, freePlanPostIds);
  if (access.full) return { full: true, item: post };
  return { full: false, item: { ...post, body: leadOf(post.body ?? '') }, cta: access.cta };
}

/** An audio episode for a viewer: without full access, no file and only the transcript's lead. */
export function audioFor<T extends { isPublicPreview: boolean; transcript?: string }>(
  viewer: Viewer,
  audio: T,
): Gated<T, Omit<T, 'audioFile'>> {
  const access = mediaAccess(viewer, audio);
  if (access.full) return { full: true, item: audio };
  const { audioFile: _file, ...open } = audio as T & { audioFile?: unknown };
  return {
    full: false,
    item: { ...open, transcript: leadOfOptional(audio.transcript) },
    cta: access.cta,
  };
}

/** A movie for a viewer: without full access, neither its file nor its embed. */
export function movieFor<T extends { isPublicPreview: boolean }>(
  viewer: Viewer,
  movie: T,
): Gated<T, Omit<T, 'videoFile' | 'embedUrl'>> {
  const access = mediaAccess(viewer, movie);
  if (access.full) return { full: true, item: movie };
  const {
    videoFile: _file,
    embedUrl: _embed,
    ...open
  } = movie as T & { videoFile?: unknown; embedUrl?: unknown };
  return { full: false, item: open, cta: access.cta };
}

/** A connect page for a viewer: without full access, its body is the lead. */
export function connectFor<T extends { body?: string }>(viewer: Viewer, page: T): Gated<T> {
  const access = connectAccess(viewer);
  if (access.full) return { full: true, item: page };
  return { full: false, item: { ...page, body: leadOf(page.body ?? '') }, cta: access.cta };
}
