import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './src/lib/security-headers';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // PGlite loads its WebAssembly and data files from its own package folder at run time; the
  // password dictionaries (several MB) are loaded once from node_modules, not bundled per route.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pg',
    'prom-client',
    '@zxcvbn-ts/core',
    '@zxcvbn-ts/language-common',
    '@zxcvbn-ts/language-en',
    '@zxcvbn-ts/language-ja',
  ],
  typedRoutes: false,
  experimental: {
    // The build's cache on disk makes the next build on this machine faster; CI builds once on
    // a clean clone, where writing it cost 18 s of CPU (a third of the type check) for nothing.
    turbopackFileSystemCacheForBuild: !process.env.CI,
    // Each page loads the stylesheets of the CSS modules it imports, not one file of every
    // route's (the default, 'loose', merged them all into a 119 KB stylesheet on every page).
    // 'graph' cuts the build's one CSS order into shared files; with every page and layout
    // importing src/styles/base.ts first, the root layout's modules come first in that order and
    // make the files every page shares; the item pages (a post above all) import
    // src/styles/item.ts next, so their modules travel as one block. requestCost: a further
    // request is worth 70 KB of CSS a page does not use (a post 5 files, `/` 4; 50 KB gave a
    // post 6, 100 KB, the default, put 36 KB of account and form styles on every item page).
    // docs/decisions/050-css-per-page.md.
    cssChunking: { type: 'graph', requestCost: 70_000 },
  },
  images: {
    // Uploaded and demo media (src/server/platform/storage) and a hosted microCMS's image CDN.
    localPatterns: [
      { pathname: '/uploads/images/**', search: '' },
      { pathname: '/uploads/demo/**', search: '' },
    ],
    qualities: [75],
    remotePatterns: [{ protocol: 'https', hostname: 'images.microcms-assets.io' }],
    formats: ['image/avif', 'image/webp'],
    deviceSizes: [360, 640, 828, 1080, 1200, 1920],
    imageSizes: [64, 128, 256, 384],
  },
  headers() {
    return Promise.resolve([
      {
        source: '/:path*',
        headers: [...SECURITY_HEADERS],
      },
    ]);
  },
};

export default config;
