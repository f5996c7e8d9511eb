import { describe, expect, it } from 'vitest';
import { isPageLoad } from './proxy';

const request = (headers: Record<string, string>) =>
  new Request('http://localhost/biz/axis-admin', { headers });

describe('which requests take the one-time form message', () => {
  it('is taken by a page load', () => {
    expect(isPageLoad(request({ 'sec-fetch-dest': 'document' }))).toBe(true);
    // A client that sends no fetch metadata (an older browser, a plain HTTP client).
    expect(isPageLoad(request({}))).toBe(true);
  });

  it("is left alone by the router's segment fetches and prefetches", () => {
    expect(isPageLoad(request({ 'sec-fetch-dest': 'empty', rsc: '1' }))).toBe(false);
    expect(isPageLoad(request({ rsc: '1', 'next-router-prefetch': '1' }))).toBe(false);
    expect(isPageLoad(request({ rsc: '1' }))).toBe(false);
    expect(isPageLoad(request({ 'sec-fetch-dest': 'empty' }))).toBe(false);
  });
});
