import { describe, expect, it } from 'vitest';
import { pageMetadata } from '@/lib/metadata';
import { generatedShareImage, shareImagePath } from './share-image-path';
import { resolveShare } from './share-meta';
import { previewLeadText, proseOf } from './share-text';

const cover = { url: '/uploads/cover.jpg', width: 1600, height: 900 };
const generated = generatedShareImage('posts', 'p1', '2026-11-27T00:00:00.000Z', '題');

describe('resolveShare', () => {
  it('takes the item’s own title, description and cover when the seo field is empty', () => {
    expect(
      resolveShare({ title: '題', description: ' 概要\n です ', coverImage: cover, seo: null }),
    ).toEqual({
      title: '題',
      titleIsCustom: false,
      description: '概要 です',
      image: cover,
      imageIsGenerated: false,
      noIndex: false,
    });
  });

  it('prefers what the editor wrote in the seo field', () => {
    const shareImage = { url: '/uploads/share.png', width: 1200, height: 630 };
    const share = resolveShare({
      title: '題',
      description: '概要',
      coverImage: cover,
      seo: { metaTitle: '検索用の題', metaDescription: '検索用の説明', shareImage, noIndex: true },
    });
    expect(share).toMatchObject({
      title: '検索用の題',
      titleIsCustom: true,
      description: '検索用の説明',
      image: shareImage,
      noIndex: true,
    });
  });

  it('falls back to the lead’s text, then to the generated image', () => {
    const share = resolveShare({
      title: '題',
      leadText: '導入の段落',
      seo: { metaTitle: '  ', metaDescription: '' },
      generatedImage: generated,
    });
    expect(share).toMatchObject({
      title: '題',
      titleIsCustom: false,
      description: '導入の段落',
      image: generated,
      imageIsGenerated: true,
    });
  });
});

describe('shareImagePath', () => {
  it('names the item’s version, so each version is its own cacheable address', () => {
    expect(shareImagePath('posts', 'p1', '2026-11-27T00:00:00.000Z')).toMatch(
      /^\/share-image\/posts\/p1\?v=[0-9a-z]+$/,
    );
    expect(shareImagePath('posts', 'p1', '2026-11-27T00:00:00.000Z')).not.toBe(
      shareImagePath('posts', 'p1', '2026-11-27T00:00:01.000Z'),
    );
    expect(shareImagePath('about', '', null)).toBe('/share-image/about/-');
    expect(generated).toMatchObject({ width: 1200, height: 630, alt: '題' });
  });
});

describe('pageMetadata with an editor’s meta title', () => {
  const site = { siteUrl: 'https://media.example.jp', siteName: 'AXIS' };
  it('uses it as the whole title, in og and twitter too', () => {
    const m = pageMetadata({ title: '検索用の題', absoluteTitle: true, path: '/posts/p1' }, site);
    expect(m.title).toEqual({ absolute: '検索用の題' });
    expect(m.openGraph?.title).toBe('検索用の題');
    expect(m.twitter?.title).toBe('検索用の題');
  });
  it('adds the site name to an item’s own title', () => {
    const m = pageMetadata({ title: '題', path: '/posts/p1', noIndex: true }, site);
    expect(m.title).toBe('題');
    expect(m.openGraph?.title).toBe('題 | AXIS');
    expect(m.robots).toEqual({ index: false, follow: true });
  });
});

describe('share text', () => {
  it('reads prose only: no captions, players or ruby readings', () => {
    expect(
      proseOf(
        '<p>本文<ruby>漢字<rt>かんじ</rt></ruby></p><figure><img alt="図"><figcaption>図の説明</figcaption></figure><p>続き</p>',
      ),
    ).toBe('本文 漢字 続き');
  });

  it('previews the lead as the text above the members’ divider', () => {
    const html = `<p>導入</p><hr data-members-divider=""><p>会員だけの本文</p>`;
    expect(previewLeadText(html)).toBe('導入');
  });

  it('without a divider, previews at most half of the text and 300 characters', () => {
    expect(previewLeadText('<p>一二三四五六七八九十</p>')).toBe('一二三四五');
    expect(Array.from(previewLeadText(`<p>${'あ'.repeat(1000)}</p>`))).toHaveLength(300);
  });
});
