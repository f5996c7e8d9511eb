/**
 * What an item's page says to search engines and to the services a link is shared on: its
 * title, description, image and whether it may be indexed. The editor's `seo` custom field
 * (src/lib/cms/model.ts) wins where filled; otherwise the item's own title, description and
 * cover, then the text of its lead, then the generated share image. Pure: the pages' metadata
 * (src/lib/metadata.ts) and the editor's previews read the same answer
 * (docs/decisions/030-share-and-search.md).
 */

export type ShareImage = { url: string; width?: number; height?: number; alt?: string };

/** The `seo` custom field as the content API reads it (null when empty). */
export type SeoFields = {
  metaTitle?: string | null;
  metaDescription?: string | null;
  shareImage?: ShareImage | null;
  noIndex?: boolean | null;
};

export type ShareSource = {
  /** The item's title as its page heads it. */
  title: string;
  description?: string | null;
  /**
   * The text of what every visitor sees of the body (its lead: never text below the members'
   * divider). Only used when there is no description.
   */
  leadText?: string | null;
  coverImage?: ShareImage | null;
  seo?: SeoFields | null;
  /** The image made from the title (src/app/share-image), when there is none of the item's. */
  generatedImage?: ShareImage | null;
};

export type ResolvedShare = {
  /** The whole <title> when the editor wrote one; else the item's title (the site's template applies). */
  title: string;
  titleIsCustom: boolean;
  description: string | null;
  image: ShareImage | null;
  imageIsGenerated: boolean;
  noIndex: boolean;
};

const filled = (text: string | null | undefined): string | null => {
  const trimmed = text?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : null;
};

export function resolveShare(source: ShareSource): ResolvedShare {
  const seo = source.seo ?? {};
  const metaTitle = filled(seo.metaTitle);
  const chosenImage = seo.shareImage?.url ? seo.shareImage : (source.coverImage ?? null);
  const image = chosenImage?.url ? chosenImage : (source.generatedImage ?? null);
  return {
    title: metaTitle ?? source.title,
    titleIsCustom: metaTitle !== null,
    description:
      filled(seo.metaDescription) ?? filled(source.description) ?? filled(source.leadText),
    image,
    imageIsGenerated: !chosenImage?.url && image !== null,
    noIndex: seo.noIndex === true,
  };
}
