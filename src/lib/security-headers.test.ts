import { describe, expect, it } from 'vitest';
import { playerSrc } from '@/lib/cms/embeds';
import { NON_PAGE_POLICY, pagePolicy, securityHeaders } from './security-headers';

/** The directives of a policy by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((d) => {
      const [name = '', ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const production = (secure = true, tagManager = false) =>
  directives(pagePolicy({ scriptSources: ["'nonce-abc'"], secure, tagManager }));

describe('pagePolicy', () => {
  it('runs only our own files and the render’s nonce in production: no inline, no eval', () => {
    const policy = production();
    expect(policy.get('script-src')).toEqual(["'self'", "'nonce-abc'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(policy.get('font-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('lets the billing forms end at Stripe’s checkout and portal, and sign-in at LINE and Google', () => {
    expect(production().get('form-action')).toEqual([
      "'self'",
      'https://checkout.stripe.com',
      'https://billing.stripe.com',
      'https://access.line.me',
      'https://accounts.google.com',
    ]);
  });

  it('frames only the players the embed facades load, nothing else of those sites', () => {
    const frames = production().get('frame-src') ?? [];
    expect(frames).toEqual(['https://www.youtube.com/embed/', 'https://player.vimeo.com/video/']);
    // What the sanitiser keeps is inside; the rest of the site is not.
    const allowed = (url: string) => frames.some((source) => url.startsWith(source));
    for (const src of [
      'https://www.youtube.com/embed/aqz-KE-bpKQ?autoplay=1',
      'https://player.vimeo.com/video/76979871',
    ]) {
      expect(playerSrc(src)).not.toBeNull();
      expect(allowed(src)).toBe(true);
    }
    expect(allowed('https://www.youtube.com/watch?v=aqz-KE-bpKQ')).toBe(false);
  });

  it('upgrades sub-resources under https only', () => {
    expect(production(true).has('upgrade-insecure-requests')).toBe(true);
    expect(production(false).has('upgrade-insecure-requests')).toBe(false);
  });

  it('allows Google’s tag hosts only when GTM is configured', () => {
    const plain = pagePolicy({ scriptSources: [], secure: true, tagManager: false });
    // Google's sign-in page may end a form post (the provider button); no tag host is allowed.
    expect(plain.replace('https://accounts.google.com', '')).not.toContain('google');
    const gtm = production(true, true);
    expect(gtm.get('script-src')).toContain('https://*.googletagmanager.com');
    expect(gtm.get('connect-src')).toContain('https://*.google-analytics.com');
    expect(gtm.get('img-src')).toContain('https://*.google-analytics.com');
  });

  it('relaxes scripts for `npm run dev` only, and nothing else', () => {
    const dev = directives(
      pagePolicy({
        scriptSources: ["'nonce-abc'"],
        secure: false,
        tagManager: false,
        development: true,
      }),
    );
    expect(dev.get('script-src')).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
    const prod = production(false);
    for (const [name, sources] of prod)
      if (name !== 'script-src') expect(dev.get(name)).toEqual(sources);
  });
});

describe('securityHeaders', () => {
  it('sends HSTS under https only, and a policy that allows nothing by default', () => {
    const names = (secure: boolean) => securityHeaders(secure).map(({ key }) => key.toLowerCase());
    expect(names(true)).toContain('strict-transport-security');
    expect(names(false)).not.toContain('strict-transport-security');
    for (const secure of [true, false]) {
      expect(names(secure)).toEqual(
        expect.arrayContaining([
          'x-content-type-options',
          'referrer-policy',
          'x-frame-options',
          'content-security-policy',
        ]),
      );
    }
    const csp = securityHeaders(true).find(({ key }) => key === 'Content-Security-Policy');
    expect(csp?.value).toBe(NON_PAGE_POLICY);
    expect(directives(NON_PAGE_POLICY).get('default-src')).toEqual(["'none'"]);
    expect(directives(NON_PAGE_POLICY).get('frame-ancestors')).toEqual(["'none'"]);
  });
});
