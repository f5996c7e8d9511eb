import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrontServer } from './front-response';
import { isGiftRequest } from './gift-answer';
import { cacheablePath } from './page-cache';

const TOKEN = 'AbCdEfGhIjKlMnOpQrSt_-';
const request = (url: string) =>
  ({ url, method: 'GET', headers: {} }) as unknown as IncomingMessage;

describe('a gift link’s request', () => {
  it('is never the page cache’s, however its query is spelled', () => {
    for (const url of [
      `/posts/a?gift=${TOKEN}`,
      `/posts/a?gift=${TOKEN}&_rsc=1x2y`,
      `/posts/a?_rsc=1x2y&gift=${TOKEN}`,
      '/posts/a?%67ift=x',
      '/posts/a?gift',
      '/?gift=x',
    ]) {
      expect(isGiftRequest(request(url)), url).toBe(true);
      expect(cacheablePath(request(url)), url).toBeNull();
    }
    expect(cacheablePath(request('/posts/a?page=2'))).not.toBeNull();
  });

  describe('its answer', () => {
    let server: ReturnType<typeof createFrontServer>;
    let base = '';
    beforeAll(async () => {
      // The framework's ways of writing a head: set headers, or headers given to writeHead.
      server = createFrontServer((req, res) => {
        res.forOneReader = true; // as the pipeline marks a gift link's answer
        if (req.url === '/object') {
          res.writeHead(200, { 'Cache-Control': 's-maxage=60', 'content-type': 'text/html' });
        } else if (req.url === '/raw') {
          res.writeHead(200, ['Cache-Control', 'public, max-age=600', 'X-Kept', '1']);
        } else {
          res.setHeader('cache-control', 'public, max-age=31536000');
          res.setHeader('x-robots-tag', 'index');
        }
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('is private, no-store and noindex, and sends no Referer on', async () => {
      for (const path of ['/implicit', '/object', '/raw']) {
        const response = await fetch(`${base}${path}`);
        expect(response.headers.get('cache-control'), path).toBe('private, no-store');
        expect(response.headers.get('x-robots-tag'), path).toBe('noindex');
        expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      }
      expect((await fetch(`${base}/raw`)).headers.get('x-kept')).toBe('1');
    });
  });
});
