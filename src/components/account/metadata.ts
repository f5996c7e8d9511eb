import type { Metadata } from 'next';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { notFoundMetadata } from '@/components/system/not-found-metadata';

/** Account screens: the site's metadata with their own title, never indexed. */
export function accountMetadata(title: string, path: string): Metadata {
  return sitePageMetadata({ title, path, noIndex: true });
}

/** What notFound() throws (next/navigation): an error whose digest names the 404 fallback. */
const isNotFound = (error: unknown) =>
  error instanceof Error &&
  (error as Error & { digest?: unknown }).digest === 'NEXT_HTTP_ERROR_FALLBACK;404';

/**
 * `generateMetadata` for a page behind a gate that answers the 404 page (requireRole and the
 * like). Next resolves a page's metadata even when the page itself calls notFound(), so a static
 * `metadata` would tell anyone who asks the title of a staff page. The page's gate runs here
 * first; a viewer it turns away gets the 404 page's metadata (the page still answers the 404).
 */
export function gatedMetadata<Props>(
  gate: (props: Props) => Promise<unknown>,
  /** The page's metadata, or how to make it from the page's props. */
  metadata: Metadata | ((props: Props) => Metadata | Promise<Metadata>),
): (props: Props) => Promise<Metadata> {
  return async (props) => {
    try {
      await gate(props);
    } catch (error) {
      if (isNotFound(error)) return notFoundMetadata;
      throw error;
    }
    return typeof metadata === 'function' ? metadata(props) : metadata;
  };
}
