import 'server-only';
import { env } from '@/env';
import { type Audience, NEWSLETTER_ENDPOINT } from '@/lib/newsletter/console';
import { findItem as findStored, itemState, publicPath } from '@/server/features/console';
import { findItem, postSchema } from '@/server/features/content';
import type { Db } from '@/server/platform/db/client';
import type { AppUser } from '@/server/features/identity';
import { type Letter, type LetterPost, renderNewsletterLetter } from './letter';
import { loadFreePlanPostIds } from './sender';
import { findEndpoint } from '@/lib/cms/model';

type Staff = Pick<AppUser, 'id' | 'name' | 'email'>;

/**
 * The version of a post a send would mail, as a letter's item: the published one of a published
 * post (a draft of changes is not sent until it is published), the working copy of a post still
 * to be published (scheduled or draft). Null when the post has nothing saved yet. The console's
 * preview and its test send both show this one.
 */
export async function letterVersionOf(db: Db, contentId: string): Promise<LetterPost | null> {
  const def = findEndpoint(NEWSLETTER_ENDPOINT)!;
  const row = await findStored(db, def, contentId);
  if (!row) return null;
  const { status } = itemState(def, row);
  const draftKey = status === 'draft' || status === 'scheduled' ? row.draftKey : null;
  const post = await findItem(NEWSLETTER_ENDPOINT, postSchema, contentId, draftKey ?? undefined);
  if (!post) return null;
  return {
    ...post,
    writers: post.writers.flatMap((w) => ('name' in w && w.name ? [{ name: w.name }] : [])),
  };
}

/**
 * The letter a post would make, for the console's preview, addressed to the staff member
 * looking at it. Its 配信停止 link is the unsubscribe page without a token: a preview is
 * nobody's subscription. A free reader's letter follows today's free-plan list; the letters
 * follow the list when they are sent.
 */
export async function renderPreviewLetter(
  db: Db,
  contentId: string,
  audience: Audience,
  viewer: Staff,
): Promise<Letter | null> {
  const item = await letterVersionOf(db, contentId);
  if (!item) return null;
  const site = env().SITE_URL;
  return renderNewsletterLetter({
    item,
    audience,
    recipient: { name: viewer.name, email: viewer.email },
    unsubscribeUrl: new URL('/newsletter/unsubscribe', site).toString(),
    postUrl: new URL(publicPath(NEWSLETTER_ENDPOINT, contentId) ?? '/', site).toString(),
    freePlanPostIds: await loadFreePlanPostIds(),
  });
}
