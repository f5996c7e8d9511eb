import type { Metadata } from 'next';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { shareImagePath } from '@/lib/share/share-image-path';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import { readSitemap } from '@/server/features/seo/sitemap';
import { testDatabase } from '@test-support/route-tests';
import { createContent } from '@/server/services/cms/writes';

/**
 * The `seo` field on a real database, through the post page's own generateMetadata (what the
 * framework writes into the served <head>: <title>, description, og:*, twitter:*, robots) and
 * the sitemap: the editor's values win, the share image falls back to the cover and then to the
 * generated image, and noindex both marks the page and takes it out of the sitemap
 * (docs/decisions/030-share-and-search.md).
 */

const state = vi.hoisted((): { site: SiteContent | undefined } => ({ site: undefined }));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () => Promise.resolve({ get: () => undefined }),
}));
vi.mock('@/server/features/access/current-viewer', () => ({
  currentViewer: () => Promise.resolve({ kind: 'anonymous' }),
}));
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).siteContentFromState(state, importOriginal),
);

const { generateMetadata } = await import('@/app/posts/[contentId]/page');

const SITE = 'https://axis.example.jp';
const SITE_NAME = 'AXIS テスト';
const COVER = { url: '/uploads/cover.jpg', width: 1600, height: 900 };
const SHARE = { url: '/uploads/share.png', width: 1200, height: 630 };
const SEO = {
  metaTitle: '検索結果に出す題 | 特別編',
  metaDescription: '検索結果とカードに出す説明文です。',
  shareImage: SHARE,
};

const database = testDatabase();
let site: SiteContent;

const metadataOf = (id: string) => generateMetadata({ params: Promise.resolve({ contentId: id }) });
/** The first og:image's and twitter:image's URL. */
const imagesOf = (metadata: Metadata) => {
  const og = metadata.openGraph?.images;
  const twitter = metadata.twitter?.images;
  return {
    og: (Array.isArray(og) ? og[0] : og) as { url: string; width?: number } | undefined,
    twitter: (Array.isArray(twitter) ? twitter[0] : twitter) as string | undefined,
  };
};

beforeAll(async () => {
  vi.stubEnv('SITE_URL', SITE);
  vi.stubEnv('SITE_NAME', SITE_NAME);
  site = createSiteContent({ db: database.db });
  state.site = site;
  const posts = findEndpoint('posts')!;
  const post = (id: string, body: Record<string, unknown>) =>
    createContent(database.db, posts, {
      id,
      status: 'publish',
      body: { description: '記事そのものの概要。', isPublicPreview: true, ...body },
    });
  await post('with-seo', { title: '記事の題', coverImage: COVER, seo: SEO });
  await post('with-cover', { title: '表紙のある記事', coverImage: COVER });
  await post('bare', { title: '画像のない記事' });
  await post('hidden', { title: '検索に出さない記事', seo: { noIndex: true } });
});
afterAll(() => {
  site?.dispose();
  state.site = undefined;
  vi.unstubAllEnvs();
});

describe('what the post page’s head says', () => {
  it('the editor’s meta title (the whole <title>), description and share image', async () => {
    const metadata = await metadataOf('with-seo');
    expect(metadata.title).toEqual({ absolute: SEO.metaTitle });
    expect(metadata.description).toBe(SEO.metaDescription);
    expect(metadata.openGraph).toMatchObject({
      title: SEO.metaTitle,
      description: SEO.metaDescription,
      url: `${SITE}/posts/with-seo`,
    });
    expect(metadata.twitter).toMatchObject({
      card: 'summary_large_image',
      title: SEO.metaTitle,
      description: SEO.metaDescription,
    });
    expect(imagesOf(metadata)).toEqual({
      og: { ...SHARE, url: SITE + SHARE.url, alt: SEO.metaTitle },
      twitter: SITE + SHARE.url,
    });
    expect(metadata.robots).toBeUndefined();
    expect(metadata.alternates?.canonical).toBe(`${SITE}/posts/with-seo`);
  });

  it('without them: the item’s title and description, and its cover as the image', async () => {
    const metadata = await metadataOf('with-cover');
    expect(metadata.title).toBe('表紙のある記事');
    expect(metadata.description).toBe('記事そのものの概要。');
    expect(metadata.openGraph?.title).toBe(`表紙のある記事 | ${SITE_NAME}`);
    expect(imagesOf(metadata)).toEqual({
      og: { ...COVER, url: SITE + COVER.url, alt: '表紙のある記事' },
      twitter: SITE + COVER.url,
    });
  });

  it('without a cover: the image generated from the title, at this version’s address', async () => {
    const metadata = await metadataOf('bare');
    const { og, twitter } = imagesOf(metadata);
    const stored = await site.client.getListDetail({
      endpoint: 'posts',
      contentId: 'bare',
      queries: { fields: 'id,revisedAt,updatedAt,createdAt' },
    });
    const path = shareImagePath('posts', 'bare', String(stored.revisedAt));
    expect(path).toMatch(/^\/share-image\/posts\/bare\?v=[0-9a-z]+$/);
    expect(og).toEqual({ url: SITE + path, width: 1200, height: 630, alt: '画像のない記事' });
    expect(twitter).toBe(SITE + path);
  });

  it('noindex: robots says so, and the sitemap leaves the page out', async () => {
    expect((await metadataOf('hidden')).robots).toEqual({ index: false, follow: true });
    const urls = (await readSitemap(site.client, SITE, 0)).map((entry) => entry.url);
    expect(urls).toContain(`${SITE}/posts/with-seo`);
    expect(urls).toContain(`${SITE}/posts/bare`);
    expect(urls).not.toContain(`${SITE}/posts/hidden`);
  });
});
