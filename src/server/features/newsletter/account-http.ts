import 'server-only';
import { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { endpoint, type ViewerOption } from '@/server/features/identity';
import { setNewsletterConsent } from '@/server/features/profiles';
import { setTracking } from './tracking';

/**
 * `POST /api/newsletter/account`: the account page's 「ニュースレターを受け取る」 /
 * 「配信を停止する」 button for the signed-in reader (a plain form; the same-origin check and
 * the session are the endpoint's). Every change goes through setNewsletterConsent, which logs it.
 */

export const SUBSCRIBED_MESSAGE = 'ニュースレターの配信を再開しました。';
export const UNSUBSCRIBED_MESSAGE = 'ニュースレターの配信を停止しました。';

const input = z.object({ subscribed: z.enum(['on', 'off']) });

export function newsletterAccountPost(deps: ViewerOption & { db?: () => Promise<Db> } = {}) {
  return endpoint(
    {
      name: 'newsletter-account',
      auth: 'user',
      input,
      formPage: '/account',
      ...(deps.db ? { db: deps.db } : {}),
      ...(deps.viewer ? { viewer: deps.viewer } : {}),
    },
    async ({ input: { subscribed }, user, ip, request }) => {
      const db = await (deps.db ?? getDb)();
      await setNewsletterConsent(db, {
        userId: user.id,
        subscribed: subscribed === 'on',
        method: 'account',
        page: '/account',
        ip,
        userAgent: request.headers.get('user-agent'),
      });
      return doneAnswer(
        subscribed === 'on' ? SUBSCRIBED_MESSAGE : UNSUBSCRIBED_MESSAGE,
        '/account',
      );
    },
  );
}

export const TRACKING_ON_MESSAGE = 'ニュースレターの開封・クリックの計測を再開しました。';
export const TRACKING_OFF_MESSAGE =
  'ニュースレターの開封・クリックの計測を停止しました。これから届くメールには計測用の画像やリンクが入りません。';

const trackingInput = z.object({ tracking: z.enum(['on', 'off']) });

/**
 * `POST /api/newsletter/tracking`: the account page's switch for the letters' open and click
 * tracking (docs/decisions/063-newsletter-analytics.md). Letters sent from then on follow it.
 */
export function newsletterTrackingPost(deps: ViewerOption & { db?: () => Promise<Db> } = {}) {
  return endpoint(
    {
      name: 'newsletter-tracking',
      auth: 'user',
      input: trackingInput,
      formPage: '/account',
      ...(deps.db ? { db: deps.db } : {}),
      ...(deps.viewer ? { viewer: deps.viewer } : {}),
    },
    async ({ input: { tracking }, user }) => {
      const db = await (deps.db ?? getDb)();
      await setTracking(db, user.id, tracking === 'on');
      return doneAnswer(tracking === 'on' ? TRACKING_ON_MESSAGE : TRACKING_OFF_MESSAGE, '/account');
    },
  );
}
