import { OBJECT_ITEM } from '@/lib/admin-content';

/** The generated share image's size: the Open Graph size every service crops to 1.91:1. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/**
 * The address of an item's generated share image (src/app/share-image): one per version of the
 * item, so it can be cached for good; a new version is a new address.
 */
export function shareImagePath(
  endpoint: string,
  id: string,
  version: string | null | undefined,
): string {
  const time = version ? Date.parse(version) : NaN;
  const v = Number.isNaN(time) ? '' : `?v=${time.toString(36)}`;
  return `/share-image/${endpoint}/${id || OBJECT_ITEM}${v}`;
}

/** The generated image as metadata names it. */
export function generatedShareImage(
  endpoint: string,
  id: string,
  version: string | null | undefined,
  title: string,
) {
  return { url: shareImagePath(endpoint, id, version), ...SHARE_IMAGE_SIZE, alt: title };
}
