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
    expect(m.openGraph).toMatchObject({ locale: 'ja_JP', url: 'https://media.example.jp/' });
    expect(m.twitter).toMatchObject({ card: 'summary_large_image' });
  });

  it('gives a page its canonical path, cut description and share image', () => {
    const m = pageMetadata(
      { title: '記事', description: 'x'.repeat(200), path: '/posts/abc', image: { url: '/c.jpg' } },
      site,
    );
    expect(m.alternates?.canonical).toBe('https://media.example.jp/posts/abc');
    expect(m.description).toBe(`${'x'.repeat(120)}…`);
    expect(m.openGraph).toMatchObject({
      url: 'https://media.example.jp/posts/abc',
      title: '記事 | AXIS Membership',
    });
    expect(m.openGraph?.images).toEqual([{ url: 'https://media.example.jp/c.jpg', alt: '記事' }]);
    expect(m.twitter?.images).toEqual(['https://media.example.jp/c.jpg']);
  });

  // Next.js would resolve a path against metadataBase to the same URL; given one, it parses once.
  it('gives every URL absolute, on a site under a path too, and leaves other hosts’ URLs alone', () => {
    const under = { siteUrl: 'https://example.jp/media/', siteName: 'S' };
    const m = pageMetadata(
      { title: '記事', path: '/posts/abc', image: { url: 'https://images.example.net/c.jpg' } },
      under,
    );
    expect(m.alternates?.canonical).toBe('https://example.jp/media/posts/abc');
    expect(m.alternates?.types).toEqual({
      'application/rss+xml': [{ url: 'https://example.jp/media/feed.xml', title: 'Sの新着記事' }],
    });
    expect(m.openGraph?.images).toEqual([{ url: 'https://images.example.net/c.jpg', alt: '記事' }]);
    const protocolRelative = pageMetadata(
      { title: '記事', path: '/x', image: { url: '//cdn.example.net/c.jpg' } },
      under,
    );
    expect(protocolRelative.twitter?.images).toEqual(['//cdn.example.net/c.jpg']);
  });

  it('falls back to the default 1200×630 share image', () => {
    const m = pageMetadata({ title: 'ページ', path: '/x' }, site);
    expect(m.openGraph?.images).toEqual([
      { url: 'https://media.example.jp/og-default.png', width: 1200, height: 630, alt: 'ページ' },
    ]);
  });
});
