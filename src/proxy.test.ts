import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { encodeFlash } from '@/lib/http/flash';
import { isPageLoad, proxy } from './proxy';

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

describe('the one-time form message on its way into the page', () => {
  const load = (cookie: string) =>
    proxy(new NextRequest('http://localhost/contact', { headers: { cookie } }));
  /** What the proxy hands the page as the flash header (Next's request-override header). */
  const passed = (response: Response) => response.headers.get('x-middleware-request-x-axis-flash');

  it('passes a flash the site wrote and deletes its cookie', async () => {
    const flash = encodeFlash({ message: '送信しました。', fieldErrors: {}, values: {} });
    const response = await load(`axis_flash=${flash}`);
    expect(passed(response)).toBe(flash);
    expect(response.headers.get('set-cookie')).toMatch(/^axis_flash=;/);
  });

  // The fuzz run's finding: `axis_flash=%00` made every page a 500 (Headers.set threw).
  it.each(['%00', '%00junk', '%E3%81%82', '%0d%0aSet-Cookie:%20x=1', 'a%20b', '"quoted"'])(
    'drops a forged flash cookie %s instead of failing the page, and deletes it',
    async (value) => {
      const response = await load(`axis_flash=${value}`);
      expect(passed(response)).toBeNull();
      expect(response.headers.get('set-cookie')).toMatch(/^axis_flash=;/);
    },
  );
});
