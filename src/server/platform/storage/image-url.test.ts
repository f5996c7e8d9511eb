import { describe, expect, it } from 'vitest';
import {
  imageSrcSet,
  isOptimizableImage,
  optimizedImageUrl,
  responsiveImageSources,
} from './image-url';

describe('imageSrcSet', () => {
  const src = '/uploads/images/2026/01/0123456789abcdef0123456789abcdef.jpg';

  it('lists optimiser URLs at the allowed widths, smallest first', () => {
    expect(imageSrcSet(src, [1080, 640, 999, 640])).toBe(
      `/_next/image?url=${encodeURIComponent(src)}&w=640&q=75 640w, ` +
        `/_next/image?url=${encodeURIComponent(src)}&w=1080&q=75 1080w`,
    );
    expect(imageSrcSet('/uploads/demo/cover.png')?.split(', ')).toHaveLength(6);
  });

  it('answers null for what the optimiser does not serve', () => {
    for (const other of [
      'https://example.com/a.jpg',
      '/uploads/images/a.svg',
      '/media/protected/a.mp4',
      '/uploads/images/../secret.jpg',
      '/uploads/images/a.jpg?x=1',
    ]) {
      expect(isOptimizableImage(other)).toBe(false);
      expect(imageSrcSet(other)).toBeNull();
    }
    expect(imageSrcSet(src, [999])).toBeNull();
  });

  it('refuses widths next.config.ts does not allow', () => {
    expect(() => optimizedImageUrl(src, 500)).toThrow(RangeError);
  });
});

describe('responsiveImageSources', () => {
  it('gives the srcset and the 1080 px src of a stored image, the plain URL of any other', () => {
    const src = '/uploads/demo/cover-28.jpg';
    expect(responsiveImageSources(src)).toEqual({
      srcSet: imageSrcSet(src),
      fallback: optimizedImageUrl(src, 1080),
    });
    for (const other of ['https://example.com/a.jpg', '/uploads/images/../secret.jpg'])
      expect(responsiveImageSources(other)).toEqual({ srcSet: null, fallback: other });
  });
});
