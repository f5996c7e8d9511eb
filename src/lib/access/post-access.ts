import type { SubscriptionRecord, SubscriptionStatus } from '@/lib/auth-state';
import { type Role, STAFF_ROLES } from '@/lib/identity/roles';
import { salePriceOf } from '@/lib/billing/purchase';
import { bodyLead, gatedLength, leadOf } from './lead';

/**
 * The access policy: the one place that decides, for a viewer and an item, what of the item may
 * leave the server (docs/decisions/000-design-baseline.md "Who reads what"). Pages, search snippets
 * and the feed render only what `postFor`, `audioFor`, `movieFor` and `connectFor` hand them: the
 * whole item, or the item with its gated part cut (body → lead, transcript → lead, media file and
 * embed removed) and the call to action for the paywall.
 *
 * Public-preview posts are open to everyone; members' posts in full to paid users, and to
 * signed-in free users for the 3 newest (the free-plan list). Audio and movie files: paid users
 * only. Connect: signed-in users. Staff (editor, admin) and preview mode read everything. The
 * call to action offers what opens the item, never a step that would not (a free account for a
 * post only a paid plan opens).
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

/**
 * Subscription statuses that keep the paid pages open (docs/decisions/000-design-baseline.md,
 * "past_due").
 */
export const PAID_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  'active',
  'trialing',
  'past_due',
]);

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
 * What a viewer without full access is offered: what opens the item for them (a free account,
 * or a paid plan), and whether they are signed out, so the paywall also offers ログイン (their
 * existing account may already open it, and it brings them back to the item).
 */
export type CallToAction = {
  opensWith: 'sign-up' | 'subscribe';
  anonymous: boolean;
  /**
   * The post is also sold singly at this price (yen, tax included), offered beside the plans
   * (docs/decisions/053-one-time-payments.md); absent when it is not, or when a free account
   * would open it.
   */
  price?: number;
};

/**
 * The policy's decision for one item. `freePlan`: the item is open to this viewer only because
 * it is in the free-plan list (a free member reading one of the newest members' posts), which
 * the page says, so the reader knows why this post is open and the next one may not be.
 */
export type Access =
  | { full: true; freePlan: boolean; gift?: GiftGrant; bought?: true; metered?: true }
  | { full: false; cta: CallToAction };

/**
 * A live gift link for a post (src/server/features/gifts/gifts.ts found it by its token): an access
 * input like the viewer, opening that one item in full for whoever holds the link
 * (docs/decisions/037-gift-articles.md). The page names the giver and the days left.
 */
export type GiftGrant = { contentId: string; giverName: string; expiresAt: Date };

/** What of an item may leave the server: all of it, or its open part and a call to action. */
export type Gated<Full, Partial = Full> =
  | {
      full: true;
      item: Full;
      freePlan: boolean;
      gift?: GiftGrant;
      /** The reader's own purchase opened it: the page is theirs alone. */
      bought?: true;
      /** A metered read opened it (docs/decisions/055-metered-wall.md): theirs alone too. */
      metered?: true;
    }
  | {
      full: false;
      item: Partial;
      cta: CallToAction;
      /**
       * Characters of text cut from the item (gatedLength), for the paywall's 「残り約…文字」;
       * absent where nothing textual is cut (a movie).
       */
      gatedChars?: number;
    };

const FULL: Access = { full: true, freePlan: false };
const FREE_PLAN: Access = { full: true, freePlan: true };
const closedTo = (viewer: Viewer, opensWith: CallToAction['opensWith']): Access => ({
  full: false,
  cta: { opensWith, anonymous: viewer.kind === 'anonymous' },
});
const opensAll = (viewer: Viewer) => viewer.kind === 'preview' || viewer.kind === 'staff';

/**
 * A post. Without full access, the call to action names what would open it: a free account for
 * a post in the free-plan list, else a paid plan, and the post itself when it is sold singly.
 * Callers that leave the list out (feeds, search scopes) get the right `full`; only the call to
 * action of a signed-out viewer needs the list. A gift opens the post it was made for, and only
 * that one, for a viewer the rest does not open; `bought` (the ids of the posts this member has
 * paid for, docs/decisions/053-one-time-payments.md) opens those, and so does `metered` (the
 * posts the meter opened for this free member this month, docs/decisions/055-metered-wall.md).
 * Only a post's page passes any of them (never a feed, a search or a list).
 */
export function postAccess(
  viewer: Viewer,
  post: { id: string; isPublicPreview: boolean; price?: number | null },
  freePlanPostIds: readonly string[],
  gift?: GiftGrant | null,
  bought: readonly string[] = [],
  metered: readonly string[] = [],
): Access {
  if (post.isPublicPreview || opensAll(viewer)) return FULL;
  if (viewer.kind === 'member' && viewer.paid) return FULL;
  const inFreePlan = freePlanPostIds.includes(post.id);
  if (viewer.kind === 'member' && inFreePlan) return FREE_PLAN;
  if (viewer.kind === 'member' && bought.includes(post.id))
    return { full: true, freePlan: false, bought: true };
  if (viewer.kind === 'member' && metered.includes(post.id))
    return { full: true, freePlan: false, metered: true };
  if (gift && gift.contentId === post.id) return { full: true, freePlan: false, gift };
  if (inFreePlan) return closedTo(viewer, 'sign-up');
  const closed = closedTo(viewer, 'subscribe');
  const price = salePriceOf(post);
  return price === null || closed.full ? closed : { ...closed, cta: { ...closed.cta, price } };
}

/**
 * Whether a viewer may make a gift of a post: a paid reader (not staff, who have other ways to
 * open an item), of a members' post they read in full (an open post needs no gift).
 */
export function mayGift(viewer: Viewer, post: { id: string; isPublicPreview: boolean }): boolean {
  if (viewer.kind !== 'member' || !viewer.paid || post.isPublicPreview) return false;
  return postAccess(viewer, post, []).full;
}

/**
 * Audio and movie files (and a movie's embed, an audio's transcript): paid readers, staff and
 * preview; everyone for a public-preview item. The pages are public.
 */
export function mediaAccess(viewer: Viewer, item: { isPublicPreview: boolean }): Access {
  if (item.isPublicPreview || opensAll(viewer)) return FULL;
  if (viewer.kind === 'member' && viewer.paid) return FULL;
  return closedTo(viewer, 'subscribe');
}

/** Connect (the community area): every signed-in reader. */
export function connectAccess(viewer: Viewer): Access {
  return viewer.kind === 'anonymous' ? closedTo(viewer, 'sign-up') : FULL;
}

/** Rich text cut to its lead; an absent one stays absent. */
const leadOfOptional = (html: string | undefined) =>
  html === undefined ? undefined : leadOf(html);

/** An item without full access: its body cut to the lead, and how much was cut. */
function withLeadBody<T extends { body?: string }>(item: T, cta: CallToAction): Gated<T> {
  const { lead, gatedChars } = bodyLead(item);
  return { full: false, item: { ...item, body: lead }, cta, gatedChars };
}

/** A post for a viewer: without full access, its body is the lead. */
export function postFor<
  T extends { id: string; isPublicPreview: boolean; price?: number | null; body?: string },
>(
  viewer: Viewer,
  post: T,
  freePlanPostIds: readonly string[],
  gift?: GiftGrant | null,
  bought?: readonly string[],
  metered?: readonly string[],
): Gated<T> {
  const access = postAccess(viewer, post, freePlanPostIds, gift, bought, metered);
  if (access.full)
    return {
      full: true,
      item: post,
      freePlan: access.freePlan,
      ...(access.gift ? { gift: access.gift } : {}),
      ...(access.bought ? { bought: true as const } : {}),
      ...(access.metered ? { metered: true as const } : {}),
    };
  return withLeadBody(post, access.cta);
}

/** An audio episode for a viewer: without full access, no file and only the transcript's lead. */
export function audioFor<T extends { isPublicPreview: boolean; transcript?: string }>(
  viewer: Viewer,
  audio: T,
): Gated<T, Omit<T, 'audioFile'>> {
  const access = mediaAccess(viewer, audio);
  if (access.full) return { full: true, item: audio, freePlan: false };
  const { audioFile: _file, ...open } = audio as T & { audioFile?: unknown };
  const transcript = leadOfOptional(audio.transcript);
  return {
    full: false,
    item: { ...open, transcript },
    cta: access.cta,
    ...(audio.transcript ? { gatedChars: gatedLength(audio.transcript, transcript ?? '') } : {}),
  };
}

/** A movie for a viewer: without full access, neither its file nor its embed. */
export function movieFor<T extends { isPublicPreview: boolean }>(
  viewer: Viewer,
  movie: T,
): Gated<T, Omit<T, 'videoFile' | 'embedUrl'>> {
  const access = mediaAccess(viewer, movie);
  if (access.full) return { full: true, item: movie, freePlan: false };
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
  if (access.full) return { full: true, item: page, freePlan: false };
  return withLeadBody(page, access.cta);
}
