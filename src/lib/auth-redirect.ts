/**
 * SPEC §2 / §6: with AUTH_CHECK_REDIRECT=true an anonymous visitor is sent to /about from every
 * path but these pages. Assets, the health check, the content API, webhooks and the account
 * endpoints (signing in must stay possible) are never redirected.
 */
export const AUTH_REDIRECT_TARGET = '/about';

const PUBLIC_PAGES: ReadonlySet<string> = new Set([
  '/login',
  '/sign-up',
  '/account/forgot-password',
  '/account/reset-password',
  '/account/change-email',
  '/account/delete',
  '/account/edit',
  // Not the account hub (/account): the SPEC lists only these account pages.
  '/about',
]);

/** Folders: the path itself and everything under it. */
const NEVER_REDIRECTED_FOLDERS = [
  '/_next',
  '/api/v1',
  '/api/webhooks',
  '/billing-sandbox',
  '/api/auth',
  '/api/account',
  '/api/analytics',
  // The letter's unsubscribe link and the footer's confirmation work signed out (RFC 8058,
  // 特定電子メール法: stopping must never need an account).
  '/newsletter',
  '/api/newsletter',
  '/uploads',
  '/sitemap',
  // Podcast apps never sign in: the public feed, each reader's (its token) and their files.
  '/podcast',
];

const NEVER_REDIRECTED_FILES: ReadonlySet<string> = new Set([
  '/api/health',
  '/api/me',
  '/favicon.ico',
  '/icon.svg',
  '/apple-icon.png',
  '/robots.txt',
  '/sitemap.xml',
  '/feed.xml',
  '/podcast-artwork.png',
  '/opengraph-image.png',
  '/manifest.webmanifest',
]);

export function isExemptFromAuthRedirect(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (PUBLIC_PAGES.has(path) || NEVER_REDIRECTED_FILES.has(path)) return true;
  return NEVER_REDIRECTED_FOLDERS.some(
    (folder) => path === folder || path.startsWith(`${folder}/`),
  );
}
