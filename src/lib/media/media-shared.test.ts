import { describe, expect, it } from 'vitest';
import {
  displayName,
  formatDimensions,
  formatFileSize,
  looksLikeImage,
  thumbnailUrl,
} from '@/lib/media/media-shared';

describe('media formatting', () => {
  it('writes sizes in bytes, KB, MB and GB', () => {
    expect(formatFileSize(5)).toBe('5 バイト');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(734_003)).toBe('717 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatFileSize(2.25 * 1024 ** 3)).toBe('2.3 GB');
  });

  it('gives dimensions only when both are known', () => {
    expect(formatDimensions({ width: 1200, height: 675 })).toBe('1200 × 675 px');
    expect(formatDimensions({ width: null, height: null })).toBe('');
  });

  it('names a file by its upload name, else its address', () => {
    expect(displayName({ filename: '表紙.jpg', url: '/uploads/images/2026/11/a.jpg' })).toBe(
      '表紙.jpg',
    );
    expect(displayName({ filename: '', url: '/media/protected/demo/audio-01.mp3' })).toBe(
      'audio-01.mp3',
    );
  });

  it('guesses images from the browser type or the name', () => {
    expect(looksLikeImage({ type: 'image/png', name: 'a' })).toBe(true);
    expect(looksLikeImage({ type: '', name: 'photo.JPG' })).toBe(true);
    expect(looksLikeImage({ type: 'video/mp4', name: 'clip.mp4' })).toBe(false);
  });

  it('thumbnails only what the optimiser serves', () => {
    expect(thumbnailUrl('/uploads/demo/cover-01.jpg')).toBe(
      '/_next/image?url=%2Fuploads%2Fdemo%2Fcover-01.jpg&w=384&q=75',
    );
    expect(thumbnailUrl('/media/protected/x.mp4')).toBe('/media/protected/x.mp4');
  });
});
