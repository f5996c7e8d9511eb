import { describe, expect, it } from 'vitest';
import { isExemptFromAuthRedirect } from './auth-redirect';

describe('isExemptFromAuthRedirect (SPEC §2 public paths)', () => {
  it('exempts exactly the listed pages', () => {
    for (const path of [
      '/login',
      '/sign-up',
      '/account/forgot-password',
      '/account/reset-password',
      '/account/change-email',
      '/account/delete',
      '/account/edit',
      '/about',
      '/about/',
    ])
      expect(isExemptFromAuthRedirect(path), path).toBe(true);
    for (const path of [
      '/',
      '/posts',
      '/posts/abc',
      '/account',
      '/account/other',
      '/aboutx',
      '/jobs',
      '/faq',
    ])
      expect(isExemptFromAuthRedirect(path), path).toBe(false);
  });

  it('never redirects assets, the health check, the content API, webhooks or account endpoints', () => {
    for (const path of [
      '/_next/static/chunks/a.js',
      '/api/health',
      '/api/v1/posts',
      '/api/webhooks/stripe',
      '/api/auth/verify-email',
      '/api/account/sign-in',
      '/uploads/images/a.jpg',
      '/favicon.ico',
      '/robots.txt',
      '/api/analytics/view',
      '/sitemap/0.xml',
      '/feed.xml',
      '/newsletter/unsubscribe',
      '/api/newsletter/unsubscribe',
    ])
      expect(isExemptFromAuthRedirect(path), path).toBe(true);
    expect(isExemptFromAuthRedirect('/api/healthz')).toBe(false);
    expect(isExemptFromAuthRedirect('/api/v1')).toBe(true);
  });
});
