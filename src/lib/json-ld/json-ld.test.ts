import { describe, expect, it } from 'vitest';
import { PAYWALLED_SELECTOR, articleJsonLd } from './article';
import { profilePageJsonLd, seriesJsonLd } from './authors-and-series';
import { breadcrumbJsonLd, itemBreadcrumbJsonLd } from './breadcrumbs';
import { contentImagesAndDates, contentItemJsonLd } from './content-item';
import { absoluteUrl, isoDateTime, isoDuration } from './core';
import { jobPostingJsonLd } from './job-posting';
import { podcastEpisodeJsonLd, videoObjectJsonLd } from './media';
import { organizationJsonLd, webSiteJsonLd } from './organization';
import { serializeJsonLd } from './serialize';

const SITE = { siteUrl: 'https://axis.example.jp', siteName: 'AXIS Membership' };

/** Every string value that looks like a URL, anywhere in the object. */
function urlsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string' && /^(https?:|\/|\/\/)/.test(value)) found.push(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, found);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) urlsIn(v, found);
  return found;
}

describe('articleJsonLd', () => {
  const base = {
    path: '/posts/p1',
    headline: '光と影のアトリエ',
    description: 'あ'.repeat(200),
    images: [{ url: '/uploads/demo/cover.jpg', width: 1600, height: 900 }],
    datePublished: '2026-11-21T09:00:00+09:00',
    dateModified: '2026-11-22T00:00:00.000Z',
    authors: [{ name: '山田 花子' }, { name: '佐藤 一郎', url: 'https://sato.example' }],
    section: '特集 住まい',
    keywords: ['建築', '照明'],
  };

  it('describes a public-preview post as free, with absolute URLs everywhere', () => {
    const ld = articleJsonLd(SITE, { ...base, isAccessibleForFree: true });
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: '光と影のアトリエ',
      image: ['https://axis.example.jp/uploads/demo/cover.jpg'],
      datePublished: '2026-11-21T00:00:00.000Z',
      dateModified: '2026-11-22T00:00:00.000Z',
      author: [
        { '@type': 'Person', name: '山田 花子' },
        { '@type': 'Person', name: '佐藤 一郎', url: 'https://sato.example' },
      ],
      publisher: {
        '@type': 'Organization',
        name: 'AXIS Membership',
        url: 'https://axis.example.jp/',
        logo: { '@type': 'ImageObject', url: 'https://axis.example.jp/apple-icon.png' },
      },
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://axis.example.jp/posts/p1' },
      url: 'https://axis.example.jp/posts/p1',
      inLanguage: 'ja',
      articleSection: '特集 住まい',
      keywords: '建築, 照明',
      isAccessibleForFree: true,
    });
    expect(ld).not.toHaveProperty('hasPart');
    // The description is cut like the page's meta description (120 characters and "…").
    expect(ld.description).toBe(`${'あ'.repeat(120)}…`);
    for (const url of urlsIn(ld)) expect(url, url).toMatch(/^https:\/\//);
  });

  it('marks members’ content as paywalled, with the part the page hides', () => {
    const ld = articleJsonLd(SITE, { ...base, type: 'NewsArticle', isAccessibleForFree: false });
    expect(ld['@type']).toBe('NewsArticle');
    expect(ld.isAccessibleForFree).toBe(false);
    expect(ld.hasPart).toEqual({
      '@type': 'WebPageElement',
      isAccessibleForFree: false,
      cssSelector: PAYWALLED_SELECTOR,
    });
    expect(PAYWALLED_SELECTOR).toBe('.paywalled');
  });

  it('falls back to the publisher as author, the share image, and the publication date', () => {
    const ld = articleJsonLd(SITE, {
      path: '/posts/p2',
      headline: 'x',
      datePublished: '2026-01-01T00:00:00Z',
      isAccessibleForFree: true,
    });
    expect(ld.author).toEqual([expect.objectContaining({ '@type': 'Organization' })]);
    expect(ld.image).toEqual(['https://axis.example.jp/og-default.png']);
    expect(ld.dateModified).toBe('2026-01-01T00:00:00.000Z');
    expect(ld).not.toHaveProperty('description');
    expect(ld).not.toHaveProperty('articleSection');
  });

  it('uses an absolute CMS image URL as is and a custom logo', () => {
    const ld = articleJsonLd(
      { ...SITE, logo: { url: 'https://cdn.example/logo.png', width: 600, height: 60 } },
      {
        ...base,
        images: ['https://images.microcms-assets.io/a.jpg', null],
        isAccessibleForFree: true,
      },
    );
    expect(ld.image).toEqual(['https://images.microcms-assets.io/a.jpg']);
    expect(ld.publisher).toMatchObject({
      logo: { url: 'https://cdn.example/logo.png', width: 600, height: 60 },
    });
  });
});

describe('videoObjectJsonLd and podcastEpisodeJsonLd', () => {
  const media = {
    path: '/movies/m1',
    name: 'アトリエの一日',
    description: '制作の現場',
    images: ['/uploads/demo/m1.jpg'],
    datePublished: '2026-03-01T00:00:00.000Z',
    duration: 3723,
    contentUrl: '/uploads/media/m1.mp4?exp=1&sig=abc',
  };

  it('names the player of a free video', () => {
    const ld = videoObjectJsonLd(SITE, {
      ...media,
      embedUrl: 'https://www.youtube.com/embed/xyz',
      isAccessibleForFree: true,
    });
    expect(ld).toMatchObject({
      '@type': 'VideoObject',
      name: 'アトリエの一日',
      description: '制作の現場',
      thumbnailUrl: ['https://axis.example.jp/uploads/demo/m1.jpg'],
      uploadDate: '2026-03-01T00:00:00.000Z',
      duration: 'PT1H2M3S',
      embedUrl: 'https://www.youtube.com/embed/xyz',
      contentUrl: 'https://axis.example.jp/uploads/media/m1.mp4?exp=1&sig=abc',
      url: 'https://axis.example.jp/movies/m1',
      isAccessibleForFree: true,
    });
  });

  it('never names the file or player of paid media', () => {
    const ld = videoObjectJsonLd(SITE, {
      ...media,
      embedUrl: 'https://www.youtube.com/embed/xyz',
      isAccessibleForFree: false,
    });
    expect(ld).not.toHaveProperty('contentUrl');
    expect(ld).not.toHaveProperty('embedUrl');
    expect(ld.isAccessibleForFree).toBe(false);
    expect(JSON.stringify(ld)).not.toMatch(/m1\.mp4|youtube/);
    const episode = podcastEpisodeJsonLd(SITE, {
      ...media,
      path: '/audios/a1',
      isAccessibleForFree: false,
    });
    expect(episode).not.toHaveProperty('associatedMedia');
    expect(JSON.stringify(episode)).not.toContain('m1.mp4');
  });

  it('gives a video without cover or description what Google requires anyway', () => {
    const ld = videoObjectJsonLd(SITE, {
      path: '/movies/m2',
      name: '名前',
      isAccessibleForFree: false,
    });
    expect(ld.thumbnailUrl).toEqual(['https://axis.example.jp/og-default.png']);
    expect(ld.description).toBe('名前');
  });

  it('describes an audio episode with its media when free', () => {
    const ld = podcastEpisodeJsonLd(SITE, {
      ...media,
      path: '/audios/a1',
      contentUrl: 'https://cdn.example/a1.mp3',
      authors: [{ name: '聞き手' }],
      series: { name: 'AXIS ラジオ', path: '/' },
      isAccessibleForFree: true,
    });
    expect(ld).toMatchObject({
      '@type': 'PodcastEpisode',
      name: 'アトリエの一日',
      url: 'https://axis.example.jp/audios/a1',
      datePublished: '2026-03-01T00:00:00.000Z',
      duration: 'PT1H2M3S',
      author: [{ '@type': 'Person', name: '聞き手' }],
      partOfSeries: {
        '@type': 'PodcastSeries',
        name: 'AXIS ラジオ',
        url: 'https://axis.example.jp/',
      },
      associatedMedia: {
        '@type': 'AudioObject',
        contentUrl: 'https://cdn.example/a1.mp3',
        duration: 'PT1H2M3S',
      },
      isAccessibleForFree: true,
    });
  });
});

describe('jobPostingJsonLd', () => {
  const base = {
    path: '/jobs/job-001',
    title: 'UIデザイナー',
    description: '<p>プロダクトのUIを担当します。</p>',
    datePosted: '2026-11-01T00:00:00.000Z',
    validThrough: '2027-01-31T23:59:59+09:00',
  };

  it('has what Google for Jobs requires and recommends', () => {
    const job = jobPostingJsonLd(SITE, {
      ...base,
      employmentTypes: ['正社員', '業務委託', '正社員'],
      location: { prefecture: '東京都', detail: '渋谷区神宮前' },
      salary: { unit: '年収', min: 4_200_000, max: 6_500_000 },
      hiringOrganization: {
        name: '株式会社サンプル',
        url: 'https://sample.example.jp/',
        logo: '/uploads/logo.png',
      },
      identifier: 'job-001',
    });
    expect(job).toEqual({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'UIデザイナー',
      description: '<p>プロダクトのUIを担当します。</p>',
      url: 'https://axis.example.jp/jobs/job-001',
      datePosted: '2026-11-01T00:00:00.000Z',
      // The end of the closing day in Japan, as an instant.
      validThrough: '2027-01-31T14:59:59.000Z',
      employmentType: ['FULL_TIME', 'CONTRACTOR'],
      hiringOrganization: {
        '@type': 'Organization',
        name: '株式会社サンプル',
        sameAs: 'https://sample.example.jp/',
        logo: 'https://axis.example.jp/uploads/logo.png',
      },
      identifier: { '@type': 'PropertyValue', name: '株式会社サンプル', value: 'job-001' },
      jobLocation: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          addressRegion: '東京都',
          addressLocality: '渋谷区神宮前',
          addressCountry: 'JP',
        },
      },
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: 'JPY',
        value: {
          '@type': 'QuantitativeValue',
          minValue: 4_200_000,
          maxValue: 6_500_000,
          unitText: 'YEAR',
        },
      },
      directApply: false,
    });
  });

  it('marks a フルリモート listing as telecommute from Japan, without a place', () => {
    const job = jobPostingJsonLd(SITE, {
      ...base,
      location: { prefecture: null, detail: '在宅', fullRemote: true },
    });
    expect(job).toMatchObject({
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: 'JP' },
    });
    expect(job).not.toHaveProperty('jobLocation');
  });

  it('keeps the place of a partly remote listing and adds no telecommute', () => {
    const job = jobPostingJsonLd(SITE, { ...base, location: { prefecture: '大阪府' } });
    expect(job.jobLocation).toEqual({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressRegion: '大阪府', addressCountry: 'JP' },
    });
    expect(job).not.toHaveProperty('jobLocationType');
    expect(job).not.toHaveProperty('applicantLocationRequirements');
  });

  it('writes an hourly wage with an open top as a minimum, and an exact amount as a value', () => {
    expect(
      jobPostingJsonLd(SITE, { ...base, salary: { unit: '時給', min: 1_150, max: null } })
        .baseSalary,
    ).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'JPY',
      value: { '@type': 'QuantitativeValue', minValue: 1_150, unitText: 'HOUR' },
    });
    expect(
      jobPostingJsonLd(SITE, { ...base, salary: { unit: '月給', min: 300_000, max: 300_000 } })
        .baseSalary,
    ).toMatchObject({ value: { value: 300_000, unitText: 'MONTH' } });
  });

  it('leaves out a salary without a unit or an amount', () => {
    for (const salary of [
      { unit: null, min: 1_000, max: 2_000 },
      { unit: '日給', min: 10_000 },
      { unit: '年収', min: null, max: null },
    ]) {
      expect(
        jobPostingJsonLd(SITE, { ...base, salary }),
        JSON.stringify(salary),
      ).not.toHaveProperty('baseSalary');
    }
  });

  it('falls back to the publisher as the hiring organization and skips unknown types', () => {
    const job = jobPostingJsonLd(SITE, { ...base, employmentTypes: ['その他'], identifier: 'x' });
    expect(job).toMatchObject({ hiringOrganization: { name: 'AXIS Membership' } });
    expect(job).not.toHaveProperty('employmentType');
    expect(job).not.toHaveProperty('jobLocation');
    expect(job).not.toHaveProperty('identifier');
    expect(job.directApply).toBe(false);
  });
});

describe('breadcrumbs, organization and website', () => {
  it('numbers the trail from 1 with absolute item URLs', () => {
    expect(
      breadcrumbJsonLd(SITE, [
        { name: 'ホーム', path: '/' },
        { name: '記事', path: '/posts' },
        { name: '光と影', path: '/posts/p1' },
      ]),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'ホーム', item: 'https://axis.example.jp/' },
        { '@type': 'ListItem', position: 2, name: '記事', item: 'https://axis.example.jp/posts' },
        {
          '@type': 'ListItem',
          position: 3,
          name: '光と影',
          item: 'https://axis.example.jp/posts/p1',
        },
      ],
    });
  });

  it('describes the publisher', () => {
    expect(
      organizationJsonLd(SITE, { description: '出版社', sameAs: ['https://x.com/axis'] }),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      '@id': 'https://axis.example.jp/#organization',
      name: 'AXIS Membership',
      url: 'https://axis.example.jp/',
      logo: {
        '@type': 'ImageObject',
        url: 'https://axis.example.jp/apple-icon.png',
        width: 180,
        height: 180,
      },
      description: '出版社',
      sameAs: ['https://x.com/axis'],
    });
  });

  it('gives the site a search box on /search?q=', () => {
    const ld = webSiteJsonLd({ siteUrl: 'https://axis.example.jp/', siteName: 'AXIS' });
    expect(ld).toMatchObject({
      '@type': 'WebSite',
      '@id': 'https://axis.example.jp/#website',
      name: 'AXIS',
      url: 'https://axis.example.jp/',
      inLanguage: 'ja',
      publisher: { '@id': 'https://axis.example.jp/#organization' },
      potentialAction: {
        '@type': 'SearchAction',
        target: {
          '@type': 'EntryPoint',
          urlTemplate: 'https://axis.example.jp/search?q={search_term_string}',
        },
        'query-input': 'required name=search_term_string',
      },
    });
  });
});

describe('helpers', () => {
  it('makes URLs absolute on SITE_URL and drops other schemes', () => {
    expect(absoluteUrl(SITE, '/a')).toBe('https://axis.example.jp/a');
    expect(absoluteUrl(SITE, 'a/b')).toBe('https://axis.example.jp/a/b');
    expect(absoluteUrl({ ...SITE, siteUrl: 'https://axis.example.jp/' }, '/a')).toBe(
      'https://axis.example.jp/a',
    );
    expect(absoluteUrl(SITE, 'http://x.example/y')).toBe('http://x.example/y');
    expect(absoluteUrl(SITE, '//cdn.example/y')).toBe('https://cdn.example/y');
    expect(absoluteUrl(SITE, 'javascript:alert(1)')).toBeUndefined();
    expect(absoluteUrl(SITE, 'data:image/png;base64,xx')).toBeUndefined();
    expect(absoluteUrl(SITE, '  ')).toBeUndefined();
  });

  it('writes dates and durations in ISO 8601', () => {
    expect(isoDateTime('2026-11-21T09:00:00+09:00')).toBe('2026-11-21T00:00:00.000Z');
    expect(isoDateTime(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(isoDateTime('not a date')).toBeUndefined();
    expect(isoDateTime(null)).toBeUndefined();
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(59.6)).toBe('PT1M');
    expect(isoDuration(3600)).toBe('PT1H');
    expect(isoDuration(3723)).toBe('PT1H2M3S');
    expect(isoDuration(-1)).toBeUndefined();
    expect(isoDuration(Number.NaN)).toBeUndefined();
    expect(isoDuration(undefined)).toBeUndefined();
  });
});

describe('serializeJsonLd', () => {
  it('cannot be broken out of: no <, > or & survive, and it parses back to the same data', () => {
    const ld = articleJsonLd(SITE, {
      path: '/posts/p1',
      headline: '</script><script>alert(1)</script> & <!-- \u2028',
      isAccessibleForFree: true,
    });
    const json = serializeJsonLd(ld);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(ld)));
  });

  it('takes several objects as one array', () => {
    const json = serializeJsonLd([webSiteJsonLd(SITE), organizationJsonLd(SITE)]);
    const parsed = JSON.parse(json) as { '@type': string }[];
    expect(parsed.map((o) => o['@type'])).toEqual(['WebSite', 'Organization']);
  });
});

describe('item pages', () => {
  it('give the trail home → section → item', () => {
    expect(
      itemBreadcrumbJsonLd(
        SITE,
        { name: '動画', path: '/movies' },
        { name: 'M', path: '/movies/m1' },
      ),
    ).toEqual(
      breadcrumbJsonLd(SITE, [
        { name: 'ホーム', path: '/' },
        { name: '動画', path: '/movies' },
        { name: 'M', path: '/movies/m1' },
      ]),
    );
  });

  it('date an item by its first publication and last revision, else creation and update', () => {
    const cover = { url: '/uploads/c.jpg' };
    const times = { createdAt: '2026-01-01', updatedAt: '2026-02-01' };
    expect(contentImagesAndDates({ ...times, coverImage: null })).toEqual({
      images: [],
      datePublished: '2026-01-01',
      dateModified: '2026-02-01',
    });
    expect(
      contentImagesAndDates({
        ...times,
        coverImage: cover,
        publishedAt: '2026-01-05',
        revisedAt: '2026-01-20',
      }),
    ).toEqual({ images: [cover], datePublished: '2026-01-05', dateModified: '2026-01-20' });
  });

  const item = {
    id: 'i1',
    title: 'T',
    description: 'D',
    createdAt: '2026-01-01',
    updatedAt: '2026-02-01',
    writers: [{ id: 'w1', name: 'W', website: 'https://w.example' }],
    isPublicPreview: true,
  };

  it.each([
    ['posts', '記事', 'Article'],
    ['connect', 'コネクト', 'Article'],
    ['movies', '動画', 'VideoObject'],
    ['audios', '音声', 'PodcastEpisode'],
  ] as const)('describe a %s item and the trail to it', (section, name, type) => {
    const [main, trail] = contentItemJsonLd(SITE, section, item);
    expect(main?.['@type']).toBe(type);
    expect(main?.url).toBe(`https://axis.example.jp/${section}/i1`);
    expect(trail).toEqual(
      itemBreadcrumbJsonLd(
        SITE,
        { name, path: `/${section}` },
        { name: 'T', path: `/${section}/i1` },
      ),
    );
  });

  it('take the editor’s meta title, description and share image; else the cover; else the generated image', () => {
    const seo = {
      metaTitle: 'シェアの題',
      metaDescription: 'シェアの説明',
      shareImage: { url: '/uploads/share.png' },
    };
    const cover = { url: '/uploads/cover.jpg' };
    const [post] = contentItemJsonLd(SITE, 'posts', { ...item, coverImage: cover, seo });
    expect(post).toMatchObject({
      headline: 'シェアの題',
      description: 'シェアの説明',
      image: ['https://axis.example.jp/uploads/share.png'],
    });
    const [movie] = contentItemJsonLd(SITE, 'movies', { ...item, coverImage: cover });
    expect(movie).toMatchObject({
      name: 'T',
      description: 'D',
      thumbnailUrl: ['https://axis.example.jp/uploads/cover.jpg'],
    });
    const [bare] = contentItemJsonLd(SITE, 'audios', item);
    expect(bare?.image).toEqual([
      `https://axis.example.jp/share-image/audios/i1?v=${Date.parse('2026-02-01').toString(36)}`,
    ]);
  });

  const writerW = {
    '@type': 'Person',
    name: 'W',
    url: 'https://axis.example.jp/authors/w1',
    sameAs: 'https://w.example',
  };

  it('link writers to their author pages, and keep connect pages members-only', () => {
    const post = contentItemJsonLd(SITE, 'posts', item, { section: 'F', keywords: ['k'] })[0];
    expect(post).toMatchObject({
      author: [writerW],
      articleSection: 'F',
      keywords: 'k',
      isAccessibleForFree: true,
    });
    const movie = contentItemJsonLd(SITE, 'movies', item, { duration: 60, embedUrl: 'https://e' });
    expect(movie[0]).toMatchObject({ author: [writerW], duration: 'PT1M', embedUrl: 'https://e' });
    // A writer without an id (no author page) is named, with their own site.
    const unnamed = { ...item, writers: [{ name: 'V', website: null }] };
    expect(contentItemJsonLd(SITE, 'audios', unnamed)[0]?.author).toEqual([
      { '@type': 'Person', name: 'V' },
    ]);
    const { writers: _, isPublicPreview: __, ...page } = item;
    expect(contentItemJsonLd(SITE, 'connect', page)[0]).toMatchObject({
      isAccessibleForFree: false,
      hasPart: { cssSelector: PAYWALLED_SELECTOR },
    });
  });
});

describe('author and series pages', () => {
  it('describe a writer as the main entity of a profile page', () => {
    const page = profilePageJsonLd(SITE, {
      id: 'writer-tanaka',
      name: '田中 美穂',
      nameKana: 'たなか みほ',
      role: '編集長',
      profile: 'プロフィール',
      avatar: { url: '/uploads/demo/avatar-01.png', width: 160, height: 160 },
      website: 'https://tanaka.example',
      updatedAt: '2026-01-02T00:00:00Z',
    });
    expect(page).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ProfilePage',
      url: 'https://axis.example.jp/authors/writer-tanaka',
      inLanguage: 'ja',
      dateModified: '2026-01-02T00:00:00.000Z',
      mainEntity: {
        '@type': 'Person',
        '@id': 'https://axis.example.jp/authors/writer-tanaka#person',
        name: '田中 美穂',
        alternateName: 'たなか みほ',
        jobTitle: '編集長',
        description: 'プロフィール',
        image: 'https://axis.example.jp/uploads/demo/avatar-01.png',
        url: 'https://axis.example.jp/authors/writer-tanaka',
        sameAs: ['https://tanaka.example'],
      },
    });
    const bare = profilePageJsonLd(SITE, { id: 'w', name: 'W', website: 'javascript:alert(1)' });
    expect(bare.mainEntity).toEqual({
      '@type': 'Person',
      '@id': 'https://axis.example.jp/authors/w#person',
      name: 'W',
      url: 'https://axis.example.jp/authors/w',
    });
  });

  it('describe a series with its writers and its episodes in order', () => {
    const [series, list] = seriesJsonLd(
      SITE,
      {
        id: 'series-town',
        title: 'まちを編む建築',
        description: '連載の説明',
        writers: [{ id: 'writer-kobayashi', name: '小林 亮' }],
      },
      [
        { id: 'post-002', title: '第一回' },
        { id: 'post-009', title: '第二回' },
      ],
    );
    expect(series).toMatchObject({
      '@type': 'CreativeWorkSeries',
      name: 'まちを編む建築',
      url: 'https://axis.example.jp/series/series-town',
      author: [
        {
          '@type': 'Person',
          name: '小林 亮',
          url: 'https://axis.example.jp/authors/writer-kobayashi',
        },
      ],
      hasPart: [
        { '@type': 'Article', headline: '第一回', position: 1 },
        { '@type': 'Article', headline: '第二回', position: 2 },
      ],
    });
    expect(list).toMatchObject({
      '@type': 'ItemList',
      numberOfItems: 2,
      itemListElement: [
        { position: 1, url: 'https://axis.example.jp/posts/post-002' },
        { position: 2, url: 'https://axis.example.jp/posts/post-009' },
      ],
    });
    expect(seriesJsonLd(SITE, { id: 's', title: 'S' }, [])[0]).not.toHaveProperty('author');
  });
});
