import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_MAX_LENGTH,
  pageMetadata,
  siteMetadata,
  truncateDescription,
} from './metadata';

describe('truncateDescription', () => {
  it('keeps a text of at most 120 characters unchanged', () => {
    const text = 'あ'.repeat(120);
    expect(truncateDescription(text)).toBe(text);
  });

  it('cuts a longer text at 120 characters and adds an ellipsis', () => {
    const text = 'デ'.repeat(121);
    const cut = truncateDescription(text);
    expect(cut).toBe(`${'デ'.repeat(120)}…`);
    expect(Array.from(cut)).toHaveLength(DESCRIPTION_MAX_LENGTH + 1);
  });

  it('never splits a character outside the BMP', () => {
    const text = '𠮷'.repeat(130);
    expect(truncateDescription(text)).toBe(`${'𠮷'.repeat(120)}…`);
  });

  it('collapses whitespace and line breaks before counting', () => {
    expect(truncateDescription('  デザイン\n\n  の   いま  ')).toBe('デザイン の いま');
  });
});

describe('metadata', () => {
  const site = { siteUrl: 'https://media.example.jp', siteName: 'AXIS Membership' };

  it('sets the title template, Japanese locale and large summary card as site defaults', () => {
    const m = siteMetadata(site);
    expect(m.title).toEqual({ default: 'AXIS Membership', template: '%s | AXIS Membership' });
    expect(m.metadataBase?.toString()).toBe('https://media.example.jp/');
    expect(m.openGraph).toMatchObject({ locale: 'ja_JP', url: '/' });
    expect(m.twitter).toMatchObject({ card: 'summary_large_image' });
  });

  it('gives a page its canonical path, cut description and share image', () => {
    const m = pageMetadata(
      { title: '記事', description: 'x'.repeat(200), path: '/posts/abc', image: { url: '/c.jpg' } },
      site,
    );
    expect(m.alternates?.canonical).toBe('/posts/abc');
    expect(m.description).toBe(`${'x'.repeat(120)}…`);
    expect(m.openGraph).toMatchObject({ url: '/posts/abc', title: '記事 | AXIS Membership' });
    expect(m.openGraph?.images).toEqual([{ url: '/c.jpg', alt: '記事' }]);
  });

  it('falls back to the default 1200×630 share image', () => {
    const m = pageMetadata({ title: 'ページ', path: '/x' }, site);
    expect(m.openGraph?.images).toEqual([
      { url: '/og-default.png', width: 1200, height: 630, alt: 'ページ' },
    ]);
  });
});
