import { normaliseLink } from './rich-text-dialogs';

describe('normaliseLink', () => {
  it.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['  example.com/page  ', 'https://example.com/page'],
    ['www.example.co.jp', 'https://www.example.co.jp'],
    ['/posts/abc', '/posts/abc'],
    ['#note-1', '#note-1'],
    ['mailto:editor@example.jp', 'mailto:editor@example.jp'],
    ['http://example.com/', 'http://example.com/'],
  ])('accepts %s', (input, href) => {
    expect(normaliseLink(input)).toEqual({ href });
  });

  it.each([
    ['', 'URL を入力してください。'],
    ['javascript:alert(1)', /http:\/\/ か https:\/\//],
    ['JaVaScRiPt:alert(1)', /http:\/\/ か https:\/\//],
    ['data:text/html,x', /http:\/\/ か https:\/\//],
    ['//evil.example/', /http:\/\/ か https:\/\//],
    ['ftp://example.com/', /http:\/\/ か https:\/\//],
    ['tel:0312345678', /http:\/\/ か https:\/\//],
    ['https://intranet/', /ドメイン/],
    ['not a url', /空白/],
  ])('refuses %s', (input, message) => {
    const result = normaliseLink(input);
    expect('error' in result && result.error).toMatch(message);
  });
});
