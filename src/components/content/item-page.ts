import { notFound } from 'next/navigation';
import type { Metadata } from 'next';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { type MetadataItem, itemPageMetadata } from '@/components/listing/site-metadata';

/**
 * The content pages under `[contentId]` (posts, audios, movies, connect): they read their item
 * through the access policy, which gives only what the reader may see, or null.
 */
type ContentIdParams = RouteParamsProps<'contentId'>['params'];
type ItemReader<Shown> = (contentId: string) => Promise<Shown | null>;

/** What the page's item shows this reader; the 404 page where there is no such item. */
export async function readShownOr404<Shown>(
  read: ItemReader<Shown>,
  params: ContentIdParams,
): Promise<Shown> {
  const shown = await read((await params).contentId);
  if (!shown) notFound();
  return shown;
}

/** The page's metadata, from the item as the page reads it (a not-found title without one). */
export async function itemMetadataOf(
  section: string,
  read: ItemReader<{ item: MetadataItem }>,
  params: ContentIdParams,
  options?: { noIndex?: boolean },
): Promise<Metadata> {
  return itemPageMetadata(section, (await read((await params).contentId))?.item, options);
}
