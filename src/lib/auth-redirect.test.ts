import { describe, expect, it } from 'vitest';
import { isExemptFromAuthRedirect } from './auth-redirect';

describe('isExemptFromAuthRedirect (SPEC §2 public paths)', () => {
  it.each([
    // Exactly the listed pages are exempt; other pages, even close ones, are not.
    ['/login', true],
    ['/sign-up', true],
    ['/account/forgot-password', true],
    ['/account/reset-password', true],
    ['/account/change-email', true],
    ['/account/delete', true],
    ['/account/edit', true],
    ['/about', true],
    ['/about/', true],
    ['/', false],
    ['/posts', false],
    ['/posts/abc', false],
    ['/account', false],
    ['/account/other', false],
    ['/aboutx', false],
    ['/jobs', false],
    ['/faq', false],
    // Assets, the health check, the content API, webhooks and account endpoints never redirect.
    ['/_next/static/chunks/a.js', true],
    ['/api/health', true],
    ['/api/healthz', false],
    ['/api/v1', true],
    ['/api/v1/posts', true],
    ['/api/webhooks/stripe', true],
    ['/api/auth/verify-email', true],
    ['/api/account/sign-in', true],
    ['/uploads/images/a.jpg', true],
    ['/favicon.ico', true],
    ['/robots.txt', true],
    ['/api/analytics/view', true],
    ['/sitemap/0.xml', true],
    ['/feed.xml', true],
    ['/newsletter/unsubscribe', true],
    ['/api/newsletter/unsubscribe', true],
    // Podcast apps never sign in: the feeds, their files and the artwork (decision 062).
    ['/podcast/feed.xml', true],
    ['/podcast/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/episodes/a.mp3', true],
    ['/podcast-artwork.png', true],
    ['/podcasts', false],
  ])('%s is exempt: %s', (path, exempt) => {
    expect(isExemptFromAuthRedirect(path)).toBe(exempt);
  });
});
