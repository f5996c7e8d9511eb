import type * as SiteContentModule from '@/server/content/site-content';
import type { SiteContent } from '@/server/content/site-content';

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
