import 'server-only';
import { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { appAuth, type Auth, emailField, endpoint } from '@/server/features/identity';
import { refererPage } from '@/server/platform/http/form-endpoint';
import {
  CONFIRM_PATH,
  SENT_PAGE,
  WELCOME_PAGE,
  confirmFooterSubscription,
  requestFooterSubscription,
} from './footer-subscribe';

/** The footer's form and the confirmation page's button (footer-subscribe.ts). */

export const SUBSCRIBE_SENT_MESSAGE =
  '確認メールを送信しました。メール内のリンクを開いて、登録を完了してください。';

type Deps = { db?: () => Promise<Db>; auth?: () => Promise<Auth>; now?: () => number };

/** `POST /api/newsletter/subscribe`: the same answer for every address. */
export function newsletterSubscribePost(deps: Deps = {}) {
  return endpoint(
    {
      name: 'newsletter-subscribe',
      input: z.object({ email: emailField }),
      formPage: '/newsletter/subscribe',
      ...(deps.db ? { db: deps.db } : {}),
    },
    async ({ input, ip, request }) => {
      const db = await (deps.db ?? getDb)();
      await requestFooterSubscription(
        db,
        { email: input.email, page: refererPage(request), ip },
        deps.now?.(),
      );
      return { ok: true, redirectTo: SENT_PAGE, message: SUBSCRIBE_SENT_MESSAGE };
    },
  );
}

/** `POST /api/newsletter/confirm?token=…`: the confirmation page's button. */
export function newsletterConfirmPost(deps: Deps = {}) {
  return endpoint(
    {
      name: 'newsletter-confirm',
      formPage: CONFIRM_PATH,
      ...(deps.db ? { db: deps.db } : {}),
    },
    async ({ request, ip }) => {
      const token = new URL(request.url).searchParams.get('token') ?? '';
      const db = await (deps.db ?? getDb)();
      const auth = await (deps.auth ?? appAuth)();
      const done = await confirmFooterSubscription(
        { db, auth },
        {
          token,
          ip,
          userAgent: request.headers.get('user-agent'),
          headers: request.headers,
        },
        deps.now ? new Date(deps.now()) : new Date(),
      );
      if (!done.ok)
        return {
          ok: true,
          redirectTo: `${CONFIRM_PATH}?token=${encodeURIComponent(token)}&error=${done.reason}`,
        };
      return {
        ok: true,
        redirectTo: done.created ? WELCOME_PAGE : `${WELCOME_PAGE}?existing=1`,
        setCookies: done.setCookies,
      };
    },
  );
}
