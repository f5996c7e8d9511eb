import { notFound } from 'next/navigation';
import type { Metadata } from 'next';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { type MetadataItem, itemPageMetadata } from '@/components/listing/site-metadata';
import { proseOf } from '@/lib/share/share-text';
import { bodyLead, leadOf } from '@/lib/access/lead';

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

type LeadSource = { full: boolean; item: { body?: string; transcript?: string } };

/**
 * The text every visitor sees of an item's body (or transcript): its lead, whoever reads. A
 * reader without access already has only the lead; for one with access it is cut the same way,
 * so a description made from it is the same for all and never holds text below the divider.
 */
export function leadTextOf(read: LeadSource): string | null {
  const html = read.item.body ?? read.item.transcript;
  if (!html) return null;
  if (!read.full) return proseOf(html);
  return proseOf(read.item.body !== undefined ? bodyLead(read.item).lead : leadOf(html));
}

/** The page's metadata, from the item as the page reads it (a not-found title without one). */
export async function itemMetadataOf(
  section: string,
  read: ItemReader<{ item: MetadataItem } & Partial<LeadSource>>,
  params: ContentIdParams,
  options?: { noIndex?: boolean },
): Promise<Metadata> {
  const shown = await read((await params).contentId);
  const leadText = shown?.item && shown.full !== undefined ? leadTextOf(shown as LeadSource) : null;
  return itemPageMetadata(section, shown?.item, { ...options, leadText });
}
