import type { Metadata } from 'next';

/** The 404 page's head (app/not-found.tsx), also what a gated page's metadata falls back to. */
export const notFoundMetadata: Metadata = {
  title: 'ページが見つかりません',
  robots: { index: false },
};
