import type { ComponentProps } from 'react';

/** What marks an anchor for the navigator: its value says whether it may be prefetched. */
export const NAV_ATTRIBUTE = 'data-nav';
export const NO_PREFETCH = 'no-prefetch';

type LinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  href: string;
  /** false: never fetched before the click (a page rendered for its reader, a counted click). */
  prefetch?: boolean;
};

/**
 * A link within the site, written as a plain anchor: the one `LinkNavigator` of the root layout
 * (./site-navigation.client.tsx) turns its click into the router's navigation and its hover,
 * touch or focus into a prefetch (docs/decisions/065-links-as-plain-anchors.md). `next/link`
 * did the same for each link with a client component of its own, rendered and hydrated per
 * link: 37 on a post page. Client components, whose links close menus when followed, keep
 * `next/link`.
 */
export function Link({ prefetch, ...anchor }: LinkProps) {
  return <a {...anchor} {...{ [NAV_ATTRIBUTE]: prefetch === false ? NO_PREFETCH : '' }} />;
}
