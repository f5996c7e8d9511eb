import 'server-only';
import { rememberLast } from '@/lib/remember-last';

/**
 * Responsive URLs for stored images where next/image cannot be used — above all the <img>
 * tags inside rich-text bodies, which are sanitised HTML. They point at Next's optimiser
 * (`/_next/image`), which accepts only the widths and qualities in next.config.ts: keep these
 * lists equal to `images.deviceSizes`, `images.imageSizes` and `images.qualities` there.
 */

export const IMAGE_DEVICE_SIZES = [360, 640, 828, 1080, 1200, 1920] as const;
export const IMAGE_SIZES = [64, 128, 256, 384] as const;
export const IMAGE_QUALITY = 75;

const ALLOWED_WIDTHS: ReadonlySet<number> = new Set([...IMAGE_SIZES, ...IMAGE_DEVICE_SIZES]);
const OPTIMIZABLE = /^\/uploads\/(?:images|demo)\/[a-z0-9/_.-]+\.(?:jpe?g|png|webp|gif|avif)$/;

/** Whether the optimiser may serve this URL (images.localPatterns in next.config.ts). */
export function isOptimizableImage(src: string): boolean {
  return OPTIMIZABLE.test(src) && !src.split('/').some((s) => s.startsWith('.'));
}

export function optimizedImageUrl(src: string, width: number): string {
  if (!ALLOWED_WIDTHS.has(width)) throw new RangeError(`width ${width} is not in next.config.ts`);
  return `/_next/image?url=${encodeURIComponent(src)}&w=${width}&q=${IMAGE_QUALITY}`;
}

/**
 * A srcset of the image at the given widths (those the optimiser does not allow are skipped),
 * or null for URLs it does not serve — use the plain src for those.
 */
export function imageSrcSet(
  src: string,
  widths: readonly number[] = IMAGE_DEVICE_SIZES,
): string | null {
  if (!isOptimizableImage(src)) return null;
  const usable = [...new Set(widths)].filter((w) => ALLOWED_WIDTHS.has(w)).sort((a, b) => a - b);
  if (usable.length === 0) return null;
  return usable.map((w) => `${optimizedImageUrl(src, w)} ${w}w`).join(', ');
}

/**
 * An <img>'s srcset at the device sizes and its src (the optimiser's 1080 px, or the plain URL
 * it does not serve), remembered: every render of a page writes the same covers.
 */
export const responsiveImageSources: (src: string) => {
  srcSet: string | null;
  fallback: string;
} = rememberLast(500, (src) =>
  Object.freeze({
    srcSet: imageSrcSet(src),
    fallback: isOptimizableImage(src) ? optimizedImageUrl(src, IMAGE_DEVICE_SIZES[3]) : src,
  }),
);
