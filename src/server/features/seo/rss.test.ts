// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { type FeedChannel, type FeedPost, absolutizeHtml, rfc822, rssXml } from './rss';

const CHANNEL: FeedChannel = {
  siteUrl: 'https://axis.example.jp',
  siteName: 'AXIS Membership',
  description: 'デザインの「いま」を読み解く',
};
const CONTENT_NS = 'http://purl.org/rss/1.0/modules/content/';
const ATOM_NS = 'http://www.w3.org/2005/Atom';
const DC_NS = 'http://purl.org/dc/elements/1.1/';

function parse(xml: string): Document {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  expect(doc.getElementsByTagName('parsererror'), xml).toHaveLength(0);
  return doc;
}
const text = (parent: Element | Document, tag: string) =>
  parent.getElementsByTagName(tag)[0]?.textContent ?? null;

const post = (over: Partial<FeedPost> = {}): FeedPost => ({
  id: 'p1',
  title: '光と影のアトリエ',
  description: '建築家の仕事場を訪ねた。',
  publishedAt: '2026-11-21T01:02:03.000Z',
  isPublicPreview: false,
  ...over,
});

describe('the RSS 2.0 feed', () => {
  it('has the channel: site name, SITE_URL, language ja, atom:link self', () => {
    const doc = parse(rssXml(CHANNEL, [post()]));
    expect(doc.documentElement.nodeName).toBe('rss');
    expect(doc.documentElement.getAttribute('version')).toBe('2.0');
    const channel = doc.getElementsByTagName('channel')[0]!;
    expect(text(channel, 'title')).toBe('AXIS Membership');
    expect(text(channel, 'link')).toBe('https://axis.example.jp');
    expect(text(channel, 'description')).toBe('デザインの「いま」を読み解く');
    expect(text(channel, 'language')).toBe('ja');
    const self = doc.getElementsByTagNameNS(ATOM_NS, 'link')[0]!;
    expect(self.getAttribute('href')).toBe('https://axis.example.jp/feed.xml');
    expect(self.getAttribute('rel')).toBe('self');
    expect(self.getAttribute('type')).toBe('application/rss+xml');
    expect(text(channel, 'lastBuildDate')).toBe('Sat, 21 Nov 2026 01:02:03 GMT');
  });

  it('gives each post its title, link, permalink guid, RFC 822 date, description, category, writers', () => {
    const doc = parse(
      rssXml(CHANNEL, [post({ category: '特集 住まい', authors: ['山田 花子', '佐藤 一郎'] })]),
    );
    const item = doc.getElementsByTagName('item')[0]!;
    expect(text(item, 'title')).toBe('光と影のアトリエ');
    expect(text(item, 'link')).toBe('https://axis.example.jp/posts/p1');
    const guid = item.getElementsByTagName('guid')[0]!;
    expect(guid.textContent).toBe('https://axis.example.jp/posts/p1');
    expect(guid.getAttribute('isPermaLink')).toBe('true');
    expect(text(item, 'pubDate')).toBe('Sat, 21 Nov 2026 01:02:03 GMT');
    expect(text(item, 'description')).toBe('建築家の仕事場を訪ねた。');
    expect(text(item, 'category')).toBe('特集 住まい');
    expect([...item.getElementsByTagNameNS(DC_NS, 'creator')].map((c) => c.textContent)).toEqual([
      '山田 花子',
      '佐藤 一郎',
    ]);
  });

  it('never carries the body of a members-only post, even when one is handed in', () => {
    const secret = 'ここからは会員だけが読める本文です';
    const xml = rssXml(CHANNEL, [post({ isPublicPreview: false, bodyHtml: `<p>${secret}</p>` })]);
    expect(xml).not.toContain(secret);
    expect(xml).not.toContain('content:encoded>');
    const item = parse(xml).getElementsByTagName('item')[0]!;
    expect([...item.children].map((c) => c.nodeName).sort()).toEqual(
      ['description', 'guid', 'link', 'pubDate', 'title'].sort(),
    );
  });

  it('carries the whole body of a public-preview post as content:encoded, URLs made absolute', () => {
    const body =
      '<p>全文です。<a href="/posts/p2">次</a> <a href="#note">注</a></p>' +
      '<figure><img src="/uploads/demo/a.jpg" alt=""></figure><p>end ]]> of CDATA</p>';
    const doc = parse(rssXml(CHANNEL, [post({ isPublicPreview: true, bodyHtml: body })]));
    const encoded = doc.getElementsByTagNameNS(CONTENT_NS, 'encoded')[0]!.textContent;
    expect(encoded).toBe(
      '<p>全文です。<a href="https://axis.example.jp/posts/p2">次</a> ' +
        '<a href="https://axis.example.jp/posts/p1#note">注</a></p>' +
        '<figure><img src="https://axis.example.jp/uploads/demo/a.jpg" alt=""></figure>' +
        '<p>end ]]> of CDATA</p>',
    );
  });

  it('escapes markup and ampersands in titles and descriptions, and stays well-formed', () => {
    const nasty = post({
      title: 'A & B <script>alert(1)</script> ]]> "q"',
      description: 'x < y && y > z \u0007',
      category: '<b>',
      authors: ['R&D'],
    });
    const doc = parse(rssXml(CHANNEL, [nasty]));
    expect(text(doc, 'title')).toBe('AXIS Membership');
    const item = doc.getElementsByTagName('item')[0]!;
    expect(text(item, 'title')).toBe('A & B <script>alert(1)</script> ]]> "q"');
    expect(text(item, 'description')).toBe('x < y && y > z ');
    expect(text(item, 'category')).toBe('<b>');
  });

  it('keeps the posts in the given order and omits what a post lacks', () => {
    const doc = parse(
      rssXml(CHANNEL, [
        post({ id: 'new' }),
        post({ id: 'old', description: null, publishedAt: null, createdAt: 'nonsense' }),
      ]),
    );
    const items = [...doc.getElementsByTagName('item')];
    expect(items.map((i) => text(i, 'guid'))).toEqual([
      'https://axis.example.jp/posts/new',
      'https://axis.example.jp/posts/old',
    ]);
    expect(items[1]!.getElementsByTagName('description')).toHaveLength(0);
    expect(items[1]!.getElementsByTagName('pubDate')).toHaveLength(0);
  });

  it('is a valid empty channel without posts', () => {
    const doc = parse(rssXml(CHANNEL, []));
    expect(doc.getElementsByTagName('item')).toHaveLength(0);
    expect(doc.getElementsByTagName('lastBuildDate')).toHaveLength(0);
  });
});

describe('feed helpers', () => {
  it('formats dates as RFC 822 in GMT', () => {
    expect(rfc822(new Date('2026-01-02T18:04:05+09:00'))).toBe('Fri, 02 Jan 2026 09:04:05 GMT');
  });

  it('leaves absolute and other URLs alone', () => {
    const html =
      '<a href="https://other.example/x">a</a><a href="mailto:a@b.jp">m</a><img src="//cdn.example/x.png">';
    expect(absolutizeHtml(html, 'https://s.jp', 'https://s.jp/posts/1')).toBe(html);
  });
});
