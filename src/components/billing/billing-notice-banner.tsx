import { cache } from 'react';
import type { BillingNotice } from '@/lib/billing-notice';
import { STAFF_ROLES } from '@/lib/identity/roles';
import { rendersForOneReader } from '@/server/features/audience';
import { readerBillingNotice } from '@/server/features/billing/reader-notices';
import { getUser } from '@/server/features/identity/session';
import type { AppUser } from '@/server/features/identity/session-user';
import { getDb } from '@/server/platform/db/client';
import { BillingNoticeBand } from './billing-notice-banner.client';

/**
 * The site-wide billing notice under the header (src/lib/billing-notice.ts): a failed renewal or
 * one waiting for 3-D Secure, or once, that the reader's plan has ended or that a second plan
 * was taken back. It is in the page as the server sends it, so nothing moves when the page has
 * loaded, and it needs no JavaScript. Pages are cached per audience
 * (docs/decisions/007-pages-per-audience.md), so it is rendered only where the page is the
 * reader's alone: the front server renders every page of a reader who has a notice for them
 * alone (src/server/features/front/request-audience.ts); a page the cache may keep shows none.
 */
export async function BillingNoticeBanner() {
  if (!rendersForOneReader()) return null;
  const notice = await bandNotice(await getUser());
  return notice ? <BillingNoticeBand notice={notice} /> : null;
}

/**
 * The band's notice for the page's user: none when signed out, and none for staff, whose plans
 * are not read (they read everything: src/server/features/access/request-viewer.ts), so that
 * their pages, all rendered per request, ask nothing of billing
 * (docs/decisions/057-staff-render-queries.md).
 */
export async function bandNotice(user: AppUser | null): Promise<BillingNotice> {
  if (!user || STAFF_ROLES.includes(user.role)) return null;
  return renderedBillingNotice(user.id);
}

/**
 * The reader's notice for the page being rendered, worked out (and a one-time notice told) once
 * per request: the banner and the account hub, which says it at its top, share it.
 */
export const renderedBillingNotice = cache(async (userId: string): Promise<BillingNotice> =>
  readerBillingNotice(await getDb(), userId).catch((error: unknown) => {
    console.warn('[billing] the billing notice could not be worked out:', error);
    return null;
  }),
);
