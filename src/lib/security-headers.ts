// Relative: next.config.ts loads this file, and its loader does not know the @/ alias.
import { PLAYER_PATH_BY_HOST, YOUTUBE_THUMBNAIL_ORIGIN } from './cms/embeds';

/**
 * The headers every answer of the site carries, the front server's own answers included
 * (the front server's pipeline, src/server/features/front/pipeline.ts, sets them first, under `npm start`
 * and `npm run dev` alike; next.config.ts gives them to the framework's own answers as well).
 * Relative imports only: next.config.ts loads this file without the `@/` alias.
 */
export const SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  // Kept beside CSP's frame-ancestors for browsers that know only this one.
  { key: 'X-Frame-Options', value: 'SAMEORIGIN' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

/** Under https only (a browser ignores it over http, and it must never pin a dev host). */
export const HSTS_HEADER = { key: 'Strict-Transport-Security', value: 'max-age=31536000' };

export const CSP_HEADER = 'Content-Security-Policy';

/**
 * The policy of an answer that is not one of the site's pages (JSON, plain text, the front
 * server's own refusals): it may run, load and frame nothing. Pages get pagePolicy() instead.
 */
export const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers the front server sets first on every answer: a page's policy replaces the CSP
 * before the framework renders (src/server/features/front/csp.ts).
 */
export function securityHeaders(secure: boolean): readonly { key: string; value: string }[] {
  const headers = [...SECURITY_HEADERS, { key: CSP_HEADER, value: NON_PAGE_POLICY }];
  return secure ? [...headers, HSTS_HEADER] : headers;
}

/** Google Tag Manager and the GA4 tags it loads (Google's documented CSP for GA4). */
const GTM_SCRIPT_HOSTS = ['https://*.googletagmanager.com'];
const GTM_IMAGE_HOSTS = ['https://*.google-analytics.com', 'https://*.googletagmanager.com'];
const GTM_CONNECT_HOSTS = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://*.googletagmanager.com',
];

/**
 * Images in rich text from a hosted microCMS point at its CDN directly (sanitised <img>, not
 * the optimiser); bodies imported from one keep those URLs even without CMS_BASE_URL.
 */
const IMAGE_HOSTS = ['https://images.microcms-assets.io'];

/**
 * The staff console's pages (/admin and below, their RSC payloads included): their policy also
 * lets the newsletter's preview show the letter's video stills. The preview is a `srcdoc` frame,
 * which has no address of its own and so runs under the console page's policy; a letter shows
 * a YouTube video as its still from YOUTUBE_THUMBNAIL_ORIGIN (Vimeo's as a link: no image).
 */
export function isConsolePath(url: string): boolean {
  return /^\/admin(?:[/?#]|$)/.test(url);
}

const CONSOLE_IMAGE_HOSTS = [YOUTUBE_THUMBNAIL_ORIGIN];

/**
 * Where a form post may end: our own routes answer 303 to Stripe Checkout and the customer
 * portal, and to the sign-in pages of LINE and Google (the provider buttons on /login), and
 * Chromium applies form-action to the redirects after a submission too.
 */
const FORM_HOSTS = [
  'https://checkout.stripe.com',
  'https://billing.stripe.com',
  'https://access.line.me',
  'https://accounts.google.com',
];

/** The players an embed facade swaps in: the same hosts and path prefixes the sanitiser keeps. */
export const FRAME_SOURCES: readonly string[] = [...PLAYER_PATH_BY_HOST].map(
  ([host, prefix]) => `https://${host}${prefix}`,
);

export type PagePolicyOptions = {
  /**
   * What may run inline besides our own files: `'nonce-…'` for a fresh render, `'sha256-…'`
   * for the scripts of a page served again from the cache, GTM's snippet hash.
   */
  scriptSources: readonly string[];
  /** SITE_URL is https: sub-resources over http are upgraded. */
  secure: boolean;
  /** GTM_ID is set: Google's tag hosts are allowed. */
  tagManager: boolean;
  /** A page of the staff console (isConsolePath): the letter preview's images are allowed. */
  staffConsole?: boolean;
  /**
   * `npm run dev` only: the framework's development client evaluates modules and injects inline
   * scripts without a nonce, so scripts are relaxed there (and nowhere else); everything else is
   * the production policy, so a blocked image host or frame shows up while developing.
   */
  development?: boolean;
};

/** The Content-Security-Policy of the site's pages. */
export function pagePolicy(options: PagePolicyOptions): string {
  const gtm = options.tagManager;
  const scripts = options.development
    ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"]
    : ["'self'", ...new Set(options.scriptSources)];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', ...scripts, ...(gtm ? GTM_SCRIPT_HOSTS : [])],
    // 'unsafe-inline' for styles only: React and TipTap write style attributes (responsive
    // images, the rich-text editor), which no nonce or hash can cover.
    ['style-src', "'self'", "'unsafe-inline'"],
    [
      'img-src',
      "'self'",
      'data:',
      'blob:',
      ...IMAGE_HOSTS,
      ...(gtm ? GTM_IMAGE_HOSTS : []),
      ...(options.staffConsole ? CONSOLE_IMAGE_HOSTS : []),
    ],
    ['media-src', "'self'", 'blob:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...(gtm ? GTM_CONNECT_HOSTS : [])],
    ['frame-src', ...FRAME_SOURCES],
    ['form-action', "'self'", ...FORM_HOSTS],
    ['frame-ancestors', "'self'"],
    ['base-uri', "'self'"],
    ['object-src', "'none'"],
  ];
  if (options.secure) directives.push(['upgrade-insecure-requests']);
  return directives.map((directive) => directive.join(' ')).join('; ');
}
