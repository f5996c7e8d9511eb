import 'server-only';

/**
 * The framework's API routes (src/app/api/**\/route.ts), as patterns: `[name]` is one path
 * segment, `[...name]` one or more. The front server answers a request to any other `/api/`
 * path itself with a 404, because the framework would take a form post there for a server
 * action and answer 500. api-routes.test.ts fails when this list and the route files differ.
 */
export const API_ROUTES: readonly string[] = [
  '/api/account/[flow]',
  '/api/account/podcast-feed',
  '/api/account/sign-in-link',
  '/api/account/sign-in-with/[provider]',
  '/api/admin/analytics/export',
  '/api/admin/api-keys',
  '/api/admin/api-keys/[id]/revoke',
  '/api/admin/content/[endpoint]',
  '/api/admin/content/[endpoint]/[contentId]',
  '/api/admin/content/[endpoint]/[contentId]/presence',
  '/api/admin/content/[endpoint]/[contentId]/rename',
  '/api/admin/content/[endpoint]/[contentId]/restore',
  '/api/admin/content/[endpoint]/[contentId]/review',
  '/api/admin/content/[endpoint]/[contentId]/workflow',
  '/api/admin/content/[endpoint]/bulk',
  '/api/admin/content/[endpoint]/lookup',
  '/api/admin/media',
  '/api/admin/media/[id]/alt',
  '/api/admin/media/[id]/delete',
  '/api/admin/newsletter/preview/[contentId]',
  '/api/admin/newsletter/sends',
  '/api/admin/newsletter/sends/[sendId]',
  '/api/admin/newsletter/suppressions',
  '/api/admin/newsletter/suppressions/remove',
  '/api/admin/newsletter/test',
  '/api/admin/offers',
  '/api/admin/offers/[id]/deactivate',
  '/api/admin/organizations',
  '/api/admin/organizations/[id]',
  '/api/admin/settings',
  '/api/admin/transfer/export',
  '/api/admin/transfer/import',
  '/api/admin/transfer/microcms',
  '/api/admin/transfer/status',
  '/api/admin/users/[userId]/partner',
  '/api/admin/users/[userId]/plan',
  '/api/admin/users/[userId]/role',
  '/api/admin/users/[userId]/sessions',
  '/api/analytics/view',
  '/api/auth/[...all]',
  '/api/billing/checkout',
  '/api/billing/checkout-return',
  '/api/billing/checkout-status',
  '/api/billing/gift-redeem',
  '/api/billing/guest-checkout',
  '/api/biz/axis-admin/inquiries/[id]',
  '/api/biz/axis-admin/listings/[id]/close',
  '/api/biz/axis-admin/listings/[id]/review',
  '/api/biz/axis-admin/partners',
  '/api/biz/axis-admin/partners/[partnerId]',
  '/api/biz/axis-admin/partners/[partnerId]/members',
  '/api/biz/partner-admin/[partnerId]/profile',
  '/api/biz/request',
  '/api/bookmarks',
  '/api/comments',
  '/api/comments/delete',
  '/api/comments/edit',
  '/api/comments/moderate',
  '/api/comments/report',
  '/api/comments/settings',
  '/api/contact',
  '/api/create-customer-portal',
  '/api/exit-preview',
  '/api/gifts',
  '/api/health',
  '/api/jobs/contact',
  '/api/jobs/listings',
  '/api/jobs/listings/[id]',
  '/api/me',
  '/api/media',
  '/api/metrics',
  '/api/newsletter/account',
  '/api/newsletter/confirm',
  '/api/newsletter/subscribe',
  '/api/newsletter/tracking',
  '/api/newsletter/unsubscribe',
  '/api/organization/checkout',
  '/api/organization/invite',
  '/api/organization/remove',
  '/api/organization/report',
  '/api/organization/seats',
  '/api/preview/jobs/[contentId]',
  '/api/v1/[endpoint]',
  '/api/v1/[endpoint]/[contentId]',
  '/api/webhooks/billing',
];

function patternOf(route: string): RegExp {
  const segments = route
    .split('/')
    .slice(1)
    .map((segment) => {
      if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return '[^/]+(?:/[^/]+)*';
      if (/^\[[^\]]+\]$/.test(segment)) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    });
  // One trailing slash is the framework's to redirect away.
  return new RegExp(`^/${segments.join('/')}/?$`);
}

const PATTERNS = API_ROUTES.map(patternOf);

/** Whether a path (no query) names one of the framework's API routes. */
export function isApiRoute(path: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(path));
}
