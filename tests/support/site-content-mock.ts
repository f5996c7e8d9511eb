import type * as SiteContentModule from '@/server/features/content/site-content';
import type { SiteContent } from '@/server/features/content/site-content';
import type { Viewer } from '@/lib/access/post-access';

/**
 * A `vi.mock` factory for site-content: `siteContent()` answers from the SiteContent a test
 * opened on its own test database (`state.site`), so the code under test reads that database.
 */
export async function siteContentFromState(
  state: { site: SiteContent | undefined },
  importOriginal: <T>() => Promise<T>,
): Promise<typeof SiteContentModule> {
  const original = await importOriginal<typeof SiteContentModule>();
  return {
    ...original,
    siteContent: () => {
      if (!state.site) throw new Error('the test database is not open yet');
      return state.site.client;
    },
  };
}

/** What a page test's mocks read: who is viewing, and the site on the test's own database. */
export type PageTestState = { viewer: Viewer; site: SiteContent | undefined };

/** A `vi.mock` factory for current-viewer: the viewer is the test's `state.viewer`. */
export function currentViewerFromState(state: { viewer: Viewer }) {
  return { currentViewer: () => Promise.resolve(state.viewer) };
}

/** siteContentFromState on the built-in content service (what previews and gifts need). */
export async function builtInSiteContentFromState(
  state: { site: SiteContent | undefined },
  importOriginal: <T>() => Promise<T>,
): Promise<typeof SiteContentModule> {
  return { ...(await siteContentFromState(state, importOriginal)), usesBuiltInContent: () => true };
}
