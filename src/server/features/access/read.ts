import 'server-only';
import { cache } from 'react';
import { type AccessLevel, accessLevelOf } from '@/lib/access/access-label';
import {
  type Audio,
  audioSchema,
  type Category,
  categorySchema,
  type ConnectPage,
  connectSchema,
  findItem,
  getFreePlanPostIds,
  type Job,
  jobSchema,
  type Movie,
  movieSchema,
  type Post,
  postSchema,
  type Series,
  seriesSchema,
  siteContent,
  type Writer,
  writerSchema,
} from '@/server/features/content';
import { getDb } from '@/server/platform/db/client';
import { findGift, type GiftedPost } from '@/server/features/gifts';
import { ownsPost } from '@/server/features/purchases';
import { sessionUser } from '@/server/features/identity';
import { activePreview } from '@/server/features/preview';
import { currentViewer } from './current-viewer';
import {
  type Gated,
  type Viewer,
  audioFor,
  connectFor,
  movieFor,
  postFor,
} from '@/lib/access/post-access';
import { noteAudience, noteMeter } from '@/server/features/audience';
import {
  frontMeterDecision,
  meterLine,
  meterRead,
  meteredAllowance,
  readerOpensPage,
} from '@/server/features/metered';
import { closedToPlans } from './post-gate';
import type { MeterView } from '@/lib/metered/meter';

/**
 * What pages read items through (Ghost's model: gating where output is made, so no page can
 * forget it). Each reader finds the item, works out the viewer and everything the policy needs
 * (the free-plan list, a preview of this item), and answers only what may leave the server:
 * the gated item and how it was decided. Null when the item does not exist or is not visible.
 * Pages cannot import the finders, the store or the schema themselves (eslint.config.mjs).
 */

export type Read<Full, Partial = Full> = Gated<Full, Partial> & {
  viewer: Viewer;
  /** The item is a draft shown through its preview cookie (src/server/features/preview). */
  preview: boolean;
  /** The preview shows the draft as a signed-out visitor gets it (「訪問者に見える部分」). */
  visitorView?: boolean;
  /** Who may read the item, for its header's badge: the same for every viewer. */
  access: AccessLevel;
  /**
   * A gift link was followed and did not open the item (forged, expired, for another item):
   * the page says so beside its paywall. Absent without one, or when it opened the item
   * (`gift` on the full answer).
   */
  giftRefused?: boolean;
  /**
   * The metered wall (docs/decisions/055-metered-wall.md), while it is on, for a members' post a
   * paid plan opens: for a visitor the monthly allowance (the same for every visitor); for a
   * free member also the reads left this month. Absent when the wall is off or does not apply.
   */
  meter?: MeterView;
};

const PREVIEW: Viewer = { kind: 'preview' };
const ANONYMOUS: Viewer = { kind: 'anonymous' };

/**
 * The free-plan posts: a free member reads them, a signed-out visitor is offered a free account
 * for them, and every viewer sees the post's header say 会員限定 rather than 有料会員限定.
 */
const freePlanPostIds = () => getFreePlanPostIds(siteContent());

/** This item's valid preview, noting the render as personal when there is one. */
async function previewOf(endpoint: 'posts' | 'jobs', contentId: string) {
  const preview = await activePreview(endpoint, contentId);
  if (preview) noteAudience(null);
  return preview;
}

/**
 * The gift a link's token names for this post, noting the render as personal whenever a token
 * is given at all: a gifted page is no audience's page (docs/decisions/037-gift-articles.md).
 */
async function giftOf(post: GiftedPost, giftToken: string | null | undefined) {
  if (giftToken === undefined || giftToken === null) return null;
  noteAudience(null);
  return findGift(await getDb(), giftToken, post, new Date());
}

/**
 * The posts a member has bought among this one (docs/decisions/053-one-time-payments.md): asked
 * only for a free member (a paid plan opens every post) and only here, the post page's reader.
 */
async function boughtOf(viewer: Viewer, post: GiftedPost): Promise<string[]> {
  if (viewer.kind !== 'member' || viewer.paid) return [];
  const user = await sessionUser();
  return user && (await ownsPost(await getDb(), user.id, post)) ? [post.id] : [];
}

/**
 * The metered wall for a post the rest of the policy left closed and a paid plan would open
 * (docs/decisions/055-metered-wall.md): a visitor is told the allowance; a free member's read is
 * the front server's meter's, decided before the page cache for this very post (`shared`: the
 * render is the entry of that meter line, noted so). Without one (a render the front server did
 * not meter) it is decided here, spending a read only when the front server counted this request
 * as a reader opening the page, and the render is this reader's alone, never kept.
 */
async function meterOf(viewer: Viewer, post: GiftedPost, closedToPlans: boolean) {
  if (!closedToPlans || viewer.kind === 'staff' || viewer.kind === 'preview') return null;
  if (viewer.kind === 'member' && viewer.paid) return null;
  const perMonth = await meteredAllowance();
  if (perMonth <= 0) return null;
  if (viewer.kind === 'anonymous') return { view: { perMonth }, opened: false };
  const decided = frontMeterDecision(post);
  if (decided) {
    noteMeter(meterLine(decided));
    const view = { perMonth: decided.perMonth, left: decided.left };
    return { view, opened: decided.opened, shared: true };
  }
  noteAudience(null);
  const user = await sessionUser();
  if (!user) return null;
  const metered = await meterRead(await getDb(), user.id, post, {
    now: new Date(),
    allowance: perMonth,
    consume: readerOpensPage(),
  });
  return { view: { perMonth, left: metered.left }, opened: metered.opened };
}

// cache(): generateMetadata and the page read the item once per request. `giftToken`: the
// page's `gift` parameter, null when it is not one token (giftTokenOf).
export const readPost = cache(
  async (contentId: string, giftToken?: string | null): Promise<Read<Post> | null> => {
    const preview = await previewOf('posts', contentId);
    const found = await findItem('posts', postSchema, contentId, preview?.draftKey);
    if (!found) return null;
    // 「訪問者に見える部分」: the draft through the policy exactly as a visitor's page is.
    const visitorView = preview?.as === 'visitor';
    const viewer = visitorView ? ANONYMOUS : preview ? PREVIEW : await currentViewer();
    const freePlan = await freePlanPostIds();
    const gift = preview ? null : await giftOf(found, giftToken);
    const bought = preview ? [] : await boughtOf(viewer, found);
    const first = postFor(viewer, found, freePlan, gift, bought);
    const meter = preview ? null : await meterOf(viewer, found, closedToPlans(first));
    const gated = meter?.opened
      ? postFor(viewer, found, freePlan, gift, bought, [found.id])
      : first;
    // A post opened by the reader's own purchase is no audience's page: never cached for one;
    // one the front server's meter opened is the metered readers' page of its line.
    if (gated.full && gated.bought) noteAudience(null);
    if (gated.full && gated.metered) noteAudience(meter?.shared ? 'metered' : null);
    return {
      ...gated,
      viewer,
      preview: !!preview,
      visitorView,
      access: accessLevelOf({ type: 'posts', ...found, inFreePlan: freePlan.includes(found.id) }),
      ...(giftToken !== undefined && !gated.full ? { giftRefused: true } : {}),
      ...(meter ? { meter: meter.view } : {}),
    };
  },
);

/** An item that has no preview (audio, movie, コネクト) as read, its badge from `level`. */
async function readGated<T, Open>(
  found: T | null,
  gate: (viewer: Viewer, item: T) => Gated<T, Open>,
  level: (item: T) => AccessLevel,
): Promise<Read<T, Open> | null> {
  if (!found) return null;
  const viewer = await currentViewer();
  return { ...gate(viewer, found), viewer, preview: false, access: level(found) };
}

export const readAudio = cache(
  async (contentId: string): Promise<Read<Audio, Omit<Audio, 'audioFile'>> | null> =>
    readGated(await findItem('audios', audioSchema, contentId), audioFor, (audio) =>
      accessLevelOf({ type: 'audios', isPublicPreview: audio.isPublicPreview }),
    ),
);

export const readMovie = cache(
  async (contentId: string): Promise<Read<Movie, Omit<Movie, 'videoFile' | 'embedUrl'>> | null> =>
    readGated(await findItem('movies', movieSchema, contentId), movieFor, (movie) =>
      accessLevelOf({ type: 'movies', isPublicPreview: movie.isPublicPreview }),
    ),
);

export const readConnect = cache(async (contentId: string): Promise<Read<ConnectPage> | null> =>
  readGated(await findItem('connect', connectSchema, contentId), connectFor, () =>
    accessLevelOf({ type: 'connect' }),
  ),
);

/** Job listings are public: the whole item, or its draft through a preview. */
export const readJob = cache(
  async (contentId: string): Promise<{ item: Job; preview: boolean } | null> => {
    const preview = await previewOf('jobs', contentId);
    const item = await findItem('jobs', jobSchema, contentId, preview?.draftKey);
    return item ? { item, preview: !!preview } : null;
  },
);

/** A feature issue (a category): public. */
export const readFeature = cache(async (categoryId: string): Promise<Category | null> =>
  findItem('categories', categorySchema, categoryId),
);

/** A writer (an author page): public. */
export const readWriter = cache(async (writerId: string): Promise<Writer | null> =>
  findItem('writers', writerSchema, writerId),
);

/** A series, its writers expanded: public (its episodes are listed with their access labels). */
export const readSeries = cache(async (seriesId: string): Promise<Series | null> =>
  findItem('series', seriesSchema, seriesId),
);
