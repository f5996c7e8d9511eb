import { env } from '@/env';
import { CopyTextButton } from '@/components/admin/copy-text-button.client';
import { Button, ButtonLink } from '@/components/ui/button';
import type { AppUser } from '@/server/features/identity';
import { viewerForUser } from '@/server/features/access';
import { PODCAST_FEED_PATH, feedBase, feedTokenFor } from '@/server/features/podcast';
import { getDb } from '@/server/platform/db/client';
import styles from './account-page.module.css';
import own from './podcast-feed.module.css';

const URL_ID = 'podcast-feed-url';

/**
 * Apple Podcasts opens a feed given as `podcast://` + the address without its scheme (the
 * scheme Ghost, Supercast and Memberful link with; docs/decisions/062-private-podcast-feeds.md).
 */
export const applePodcastsLink = (feedUrl: string) =>
  `podcast://${feedUrl.replace(/^https?:\/\//, '')}`;

export type PodcastFeedView = { feedUrl: string; paid: boolean };

/** The reader's feed address (made on their first visit) and whether their plan is paid. */
export async function podcastFeedOf(user: AppUser): Promise<PodcastFeedView> {
  const [token, viewer] = await Promise.all([
    feedTokenFor(await getDb(), user.id),
    viewerForUser(user),
  ]);
  return {
    feedUrl: `${env().SITE_URL}${feedBase(token)}/feed.xml`,
    paid: viewer.kind !== 'member' || viewer.paid,
  };
}

/**
 * The account hub's 「ポッドキャスト」: the reader's own feed address in a read-only field,
 * selectable without JavaScript, a copy button, the Apple Podcasts link and 「URLを再発行」 (a
 * plain form). A free member's feed has the free episodes; a paid plan adds the members' ones to
 * the same address.
 */
export function PodcastFeedSection({ feedUrl, paid }: PodcastFeedView) {
  return (
    <section id="podcast" className={styles.section} aria-labelledby="podcast-title">
      <h2 id="podcast-title" className={styles.sectionTitle}>
        ポッドキャスト
      </h2>
      <p className={styles.state}>
        {paid
          ? '会員限定の回を含む音声を、お使いのポッドキャストアプリで聴けます。'
          : '無料公開の回をポッドキャストアプリで聴けます。有料プランをご契約いただくと、会員限定の回もこの URL に届きます。'}
        この URL はあなた専用です。ほかの人に教えたり、公開の場所に載せたりしないでください。
      </p>
      <label htmlFor={URL_ID} className={own.label}>
        フィードの URL
      </label>
      <input id={URL_ID} type="url" readOnly value={feedUrl} className={own.url} />
      <div className={own.actions}>
        <CopyTextButton targetId={URL_ID} what="URL" statusClassName={own.status} />
        <ButtonLink href={applePodcastsLink(feedUrl)} prefetch={false} color="black" width="auto">
          Apple Podcasts で聴く
        </ButtonLink>
      </div>
      <form method="post" action={PODCAST_FEED_PATH} className={own.reissue}>
        <Button type="submit" color="white" width="auto">
          URLを再発行
        </Button>
        <p className={own.note}>
          再発行すると、これまでの URL はすぐに使えなくなります。URL が漏れたときにお使いください。
        </p>
      </form>
    </section>
  );
}
