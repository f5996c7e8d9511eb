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
