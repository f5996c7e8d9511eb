import 'server-only';
import { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { endpoint, type ViewerOption } from '@/server/features/identity';
import { reissueFeed } from './tokens';

/**
 * `POST /api/account/podcast-feed`: the account page's 「URLを再発行」 (a plain form). The old
 * address stops at once; the page then shows the new one. Audited (reissueFeed).
 */

export const PODCAST_FEED_PATH = '/api/account/podcast-feed';
export const REISSUED_MESSAGE =
  'ポッドキャストのフィード URL を再発行しました。これまでの URL はもう使えません。お使いのアプリに新しい URL を登録し直してください。';

export function podcastFeedPost(deps: ViewerOption & { db?: () => Promise<Db> } = {}) {
  return endpoint(
    {
      name: 'podcast-feed-reissue',
      auth: 'user',
      input: z.object({}),
      maxBytes: 1024,
      // Pressed by hand now and then: a burst is a script.
      rateLimit: { name: 'podcast-feed-reissue', max: 20, windowMs: 10 * 60_000 },
      formPage: '/account',
      ...(deps.db ? { db: deps.db } : {}),
      ...(deps.viewer ? { viewer: deps.viewer } : {}),
    },
    async ({ user, ip }) => {
      await reissueFeed(await (deps.db ?? getDb)(), user.id, ip);
      return doneAnswer(REISSUED_MESSAGE, '/account#podcast');
    },
  );
}
