import { describe, expect, it } from 'vitest';
import { isArchivableKey } from '@/server/platform/archive/store-files';
import { referencedKeys, storageKeyOfUrl } from './archive-format';

describe('our media URLs and their storage keys', () => {
  it('maps public images, demo media and protected media to their keys', () => {
    expect(storageKeyOfUrl('/uploads/images/2026/01/abc.jpg')).toBe('images/2026/01/abc.jpg');
    expect(storageKeyOfUrl('/uploads/demo/cover-1.jpg?v=1')).toBe('demo/cover-1.jpg');
    expect(storageKeyOfUrl('/media/protected/demo/a.mp3')).toBe('protected/demo/a.mp3');
  });

  it('refuses anything that would leave the three folders', () => {
    for (const url of [
      '/uploads/../secret',
      '/uploads/images/../../x',
      '/uploads/protected/a.mp3',
      '/media/images/a.jpg',
      '/uploads/.tmp/x.part',
      'https://example.com/uploads/images/a.jpg',
      '/uploads/images/A.JPG',
    ])
      expect(storageKeyOfUrl(url)).toBeNull();
    expect(isArchivableKey('images/a.png')).toBe(true);
    expect(isArchivableKey('../a.png')).toBe(false);
    expect(isArchivableKey('other/a.png')).toBe(false);
  });

  it('finds every key stored content points at, in fields and in rich text', () => {
    const keys = referencedKeys({
      coverImage: { url: '/uploads/images/2026/01/a.jpg', width: 3 },
      audioFile: { url: '/media/protected/2026/01/b.mp3' },
      body: '<p>x</p><img src="/uploads/demo/cover-11.jpg" alt=""><a href="/uploads/../x">y</a>',
      nested: [['/uploads/images/2026/01/a.jpg']],
    });
    expect([...keys].sort()).toEqual([
      'demo/cover-11.jpg',
      'images/2026/01/a.jpg',
      'protected/2026/01/b.mp3',
    ]);
  });
});
