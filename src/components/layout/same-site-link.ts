/**
 * The link of this site that a click follows, if it is one the page can load itself: a plain
 * left click (no modifier: those open tabs and windows), on an anchor that opens in this
 * window, is no download, and leads to this origin. Read by the navigator, which turns such a
 * click into the router's navigation, and by the progress bar, which shows it.
 */
export function sameSiteLinkOf(event: MouseEvent): { anchor: HTMLAnchorElement; url: URL } | null {
  if (event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  if (anchor.hasAttribute('download')) return null;
  const url = sameSiteUrl(anchor);
  return url ? { anchor, url } : null;
}

/** Where an anchor leads, if that is on this origin. */
export function sameSiteUrl(anchor: HTMLAnchorElement): URL | null {
  const url = new URL(anchor.href, window.location.href);
  return url.origin === window.location.origin ? url : null;
}

/** Whether a URL is the page already shown, or a place on it: following it loads nothing. */
export const isCurrentPage = (url: URL) =>
  url.pathname === window.location.pathname && url.search === window.location.search;
