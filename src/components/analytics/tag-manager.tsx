import { tagManagerSnippet } from '@/lib/analytics/tag-manager';

/**
 * Loads Google Tag Manager only when GTM_ID is set, with Google's own snippet inlined in the
 * server-rendered HTML (a plain script: next/script would add its client code to every page,
 * GTM or not). The data layer itself is created by the first page_view push and by this
 * snippet, so events before GTM loads are kept for it. The snippet itself is
 * src/lib/analytics/tag-manager.ts, which the page CSP hashes.
 */
export function TagManager({ gtmId }: { gtmId: string | undefined }) {
  if (!gtmId) return null;
  const snippet = tagManagerSnippet(gtmId);
  return <script id="gtm" dangerouslySetInnerHTML={{ __html: snippet }} />;
}
