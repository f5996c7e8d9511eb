import { describe, expect, it } from 'vitest';
import { SITE_FEED_PATH, feedAlternates, seriesFeedLink, seriesFeedPath } from './feeds';
import { pageMetadata, siteMetadata } from './metadata';

const site = { siteUrl: 'https://axis.example.jp', siteName: 'AXIS Membership' };
const siteFeed = {
  url: `https://axis.example.jp${SITE_FEED_PATH}`,
  title: 'AXIS Membershipの新着記事',
};

describe('feeds named in the head', () => {
  it('names the site feed on every page: the layout and each page that sets its own alternates', () => {
    expect(siteMetadata(site).alternates?.types).toEqual({ 'application/rss+xml': [siteFeed] });
    expect(pageMetadata({ title: 'T', path: '/posts' }, site).alternates).toEqual({
      canonical: 'https://axis.example.jp/posts',
      types: { 'application/rss+xml': [siteFeed] },
    });
  });

  it('names a series feed beside the site feed', () => {
    const series = seriesFeedLink({ id: 'series-town', title: 'まちを編む建築' });
    expect(series).toEqual({
      url: '/series/series-town/feed.xml',
      title: '連載「まちを編む建築」の新着記事',
    });
    expect(
      pageMetadata({ title: 'T', path: '/posts/p', feeds: [series] }, site).alternates?.types,
    ).toEqual({
      'application/rss+xml': [
        siteFeed,
        { ...series, url: 'https://axis.example.jp/series/series-town/feed.xml' },
      ],
    });
    expect(feedAlternates('S')['application/rss+xml']).toHaveLength(1);
    expect(seriesFeedPath('a/b')).toBe('/series/a%2Fb/feed.xml');
  });
});
