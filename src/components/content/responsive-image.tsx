import { preload } from 'react-dom';
import { responsiveImageSources } from '@/server/platform/storage/image-url';

/**
 * A server-rendered responsive <img>: the optimiser's sizes in srcset, lazy unless it is the
 * page's main picture (then preloaded with high priority). No client JavaScript, unlike
 * next/image, which keeps every page's first load lighter.
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  sizes,
  priority = false,
  fill = false,
  className,
}: {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  sizes: string;
  priority?: boolean;
  /** Cover the positioned parent (which sets the aspect ratio). */
  fill?: boolean;
  className?: string;
}) {
  const sources = responsiveImageSources(src);
  const srcSet = sources.srcSet ?? undefined;
  const fallback = sources.fallback;
  if (priority) {
    preload(fallback, {
      as: 'image',
      imageSrcSet: srcSet,
      imageSizes: sizes,
      fetchPriority: 'high',
    });
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- responsive srcset built on the server
    <img
      src={fallback}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={fill ? undefined : width}
      height={fill ? undefined : height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={className}
      style={
        fill
          ? { position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }
          : { width: '100%', height: 'auto' }
      }
    />
  );
}

/**
 * A cover filling its frame (a card's, a list row's, a masthead's), or nothing when there is no
 * image. `alt` overrides the image's own text ('' for a cover beside a title that says it all).
 */
export function FillCover({
  image,
  sizes,
  priority,
  alt,
}: {
  image: { url: string; alt?: string | null } | null | undefined;
  sizes: string;
  priority?: boolean;
  alt?: string;
}) {
  if (!image) return null;
  return (
    <ResponsiveImage
      src={image.url}
      alt={alt ?? image.alt ?? ''}
      fill
      sizes={sizes}
      priority={priority}
    />
  );
}
