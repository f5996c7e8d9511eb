import 'server-only';
import { OBJECT_ITEM } from '@/lib/admin-content';
import { itemPath } from '@/lib/cms/item-paths';
import { SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import { type SitePageEndpoint, sitePagePath } from '@/server/features/content';

/**
 * Where the site shows an item, for the console's 「公開ページを見る」 and 「プレビュー」. Only
 * posts and jobs have a preview page (SPEC §2: draftKey); other kinds are checked on their
 * public page once published.
 */

const PREVIEW_PAGES: Readonly<Record<string, (id: string) => string>> = {
  posts: (id) => `/posts/${id}/preview`,
  jobs: (id) => `/jobs/preview/${id}`,
};

export function publicPath(endpoint: string, id: string): string | null {
  if ((SITE_PAGE_ENDPOINTS as readonly string[]).includes(endpoint))
    return sitePagePath(endpoint as SitePageEndpoint);
  if (endpoint === 'home') return '/';
  return id !== OBJECT_ITEM ? itemPath(endpoint, id) : null;
}

export function previewPath(endpoint: string, id: string, draftKey: string | null): string | null {
  const page = PREVIEW_PAGES[endpoint];
  if (!page || !draftKey || !id) return null;
  return `${page(encodeURIComponent(id))}?draftKey=${encodeURIComponent(draftKey)}`;
}

export function hasPreviewPage(endpoint: string): boolean {
  return endpoint in PREVIEW_PAGES;
}
