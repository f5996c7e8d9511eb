import { describe, expect, it } from 'vitest';
import { playerSrc } from '@/lib/cms/embeds';
import { NON_PAGE_POLICY, isConsolePath, pagePolicy, securityHeaders } from './security-headers';

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

  it('lets the console’s pages, and no other, show a letter’s YouTube stills', () => {
    const consolePolicy = directives(
      pagePolicy({
        scriptSources: ["'nonce-abc'"],
        secure: true,
        tagManager: false,
        staffConsole: true,
      }),
    );
    // The one host a letter's image comes from (letter-body.ts), never any https image.
    expect(consolePolicy.get('img-src')).toEqual(
      expect.arrayContaining(["'self'", 'https://i.ytimg.com']),
    );
    expect(consolePolicy.get('img-src')).not.toContain('https:');
    expect(consolePolicy.get('img-src')?.some((source) => source.includes('*'))).toBe(false);
    // Everything else is the site's policy.
    const site = production();
    expect(site.get('img-src')).not.toContain('https://i.ytimg.com');
    for (const [name, sources] of site)
      if (name !== 'img-src') expect(consolePolicy.get(name), name).toEqual(sources);
  });

  it('counts /admin and below as the console, nothing that only starts like it', () => {
    for (const url of [
      '/admin',
      '/admin/',
      '/admin/content/posts/p1/newsletter?_rsc=x',
      '/admin?x',
    ])
      expect(isConsolePath(url), url).toBe(true);
    for (const url of ['/', '/administrator', '/api/admin/content', '/biz/axis-admin', '/posts'])
      expect(isConsolePath(url), url).toBe(false);
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
