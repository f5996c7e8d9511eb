import { describe, expect, it } from 'vitest';
import { searchBusyHref, searchBusyResponse } from './search-limit';

describe('the answer over the limit', () => {
  it('is a 429 page in Japanese, never cached, leading back to the search', async () => {
    const href = searchBusyHref('<漆器>&"', 42.2);
    expect(href).toBe('/search/busy?q=%3C%E6%BC%86%E5%99%A8%3E%26%22&after=43');
    const response = searchBusyResponse(new URL(href, 'http://localhost'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('43');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('検索の回数が多すぎます');
    expect(html).toContain('1 分ほど待ってから');
    expect(html).toContain('href="/search?q=%3C%E6%BC%86%E5%99%A8%3E%26%22"');
    expect(html).not.toContain('<漆器>');
  });

  it('clamps the wait it states', async () => {
    const long = searchBusyResponse(new URL('http://localhost/search/busy?after=999999'));
    expect(long.headers.get('retry-after')).toBe('3600');
    expect(await long.text()).toContain('60 分ほど');
    const junk = searchBusyResponse(new URL('http://localhost/search/busy?after=abc'));
    expect(junk.headers.get('retry-after')).toBe('60');
  });
});
