import type { SiteSettings } from '../metadata';
import { CONTEXT, type JsonLdObject, absoluteUrl, compact } from './core';

export type BreadcrumbItem = { name: string; path: string };

/** The trail from the home page to this one, e.g. [{ホーム, /}, {記事, /posts}, {title, /posts/id}]. */
export function breadcrumbJsonLd(
  site: SiteSettings,
  items: readonly BreadcrumbItem[],
): JsonLdObject {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) =>
      compact({
        '@type': 'ListItem',
        position: index + 1,
        name: item.name,
        item: absoluteUrl(site, item.path),
      }),
    ),
  };
}

/** The trail home → a section's list → an item, as every item page gives it. */
export function itemBreadcrumbJsonLd(
  site: SiteSettings,
  section: BreadcrumbItem,
  item: BreadcrumbItem,
): JsonLdObject {
  return breadcrumbJsonLd(site, [{ name: 'ホーム', path: '/' }, section, item]);
}
