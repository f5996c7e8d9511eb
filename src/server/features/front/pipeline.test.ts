import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type TestFrontServer, startFrontServer } from '@test-support/front-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  noteAudience,
  noteContentReads,
  notePersonal,
} from '@/server/features/audience/render-record';
import { type ContentChange, emitContentChange } from '@/server/services/cms/events';
import { readsOfAnswer } from '@/server/services/cms/reads';
import { encodeFlash } from '@/lib/http/flash';
import { unsubscribeToken } from '@/server/features/profiles/newsletter-consent';
import { currentRequest } from '@/server/platform/http/request-context';
import { PageCache } from './page-cache';

/**
 * The front server's pipeline on a real socket, with a stand-in for the framework that renders
 * a page as a content page does (noting its audience) and says what it was handed.
 */

type Seen = { url: string; headers: IncomingHttpHeaders; requestId: string | undefined };
const seen: Seen[] = [];
const NONCE = /'nonce-([^']+)'/;

/**
 * Pages whose first render is overtaken by a change of the post it shows, made while it renders
 * (an editor saving meanwhile): an edit of a public field, an unpublication, a paywall switch.
 */
const OVERTAKEN: Record<string, ContentChange> = {
  '/posts/edited': {
    endpoint: 'posts',
    id: 'edited',
    fields: ['description', 'updatedAt'],
    membership: false,
    narrows: false,
  },
  '/posts/unpublished': { endpoint: 'posts', id: 'unpublished' },
  '/posts/paywalled': {
    endpoint: 'posts',
    id: 'paywalled',
    fields: ['isPublicPreview'],
    membership: false,
    narrows: true,
  },
};

/** A page with an inline script carrying the render's nonce, as the framework writes one. */
async function framework(req: IncomingMessage, res: ServerResponse): Promise<void> {
  seen.push({
    url: req.url ?? '',
    headers: { ...req.headers },
    requestId: currentRequest()?.requestId,
  });
  // What the access policy and getUser note while a page renders.
  if (req.url === '/about') noteAudience('anonymous');
  if (req.url === '/faq') notePersonal();
  const change = OVERTAKEN[req.url ?? ''];
  if (change) {
    noteAudience('anonymous');
    noteContentReads(() =>
      readsOfAnswer('posts', change.id, new URLSearchParams(), { id: change.id }),
    );
    if (rendersOf(req.url!) === 1) {
      await Promise.resolve();
      emitContentChange(change);
    }
  }
  const nonce = NONCE.exec(String(req.headers['content-security-policy']))?.[1];
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<p>${req.url}</p><script nonce="${nonce}">self.page=1</script>`);
}

let front: TestFrontServer;
let base = '';
beforeAll(async () => {
  front = await startFrontServer(framework, new PageCache(), {
    // A renamed post, as the content service's redirects name it (rename.integration.test.ts).
    moved: (pathname, search) =>
      Promise.resolve(pathname === '/posts/old-slug' ? `/posts/new-slug${search}` : null),
    // A stored file answered outside the framework, in two chunks, as a file's stream comes.
    files: (url) =>
      url.startsWith('/podcast/episodes/')
        ? (request) => {
            const range = request.headers.get('range') !== null;
            const body = new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(new TextEncoder().encode('ID3'));
                controller.enqueue(new TextEncoder().encode(range ? '' : '-audio'));
                controller.close();
              },
            });
            return Promise.resolve(
              new Response(body, {
                status: range ? 206 : 200,
                headers: {
                  'content-type': 'audio/mpeg',
                  'content-length': range ? '3' : '9',
                  ...(range ? { 'content-range': 'bytes 0-2/9' } : {}),
                },
              }),
            );
          }
        : null,
  });
  base = front.base;
});
afterAll(() => front.stop());

/** The framework's renders of `path` so far. */
const rendersOf = (path: string) => seen.filter((s) => s.url === path).length;

describe('the request pipeline', () => {
  it('streams a stored file with its Content-Length, for GET, HEAD and a range', async () => {
    const before = seen.length;
    const whole = await fetch(`${base}/podcast/episodes/ep.mp3`);
    expect([whole.status, whole.headers.get('content-length'), await whole.text()]).toEqual([
      200,
      '9',
      'ID3-audio',
    ]);
    const head = await fetch(`${base}/podcast/episodes/ep.mp3`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      '9',
      '',
    ]);
    const part = await fetch(`${base}/podcast/episodes/ep.mp3`, {
      headers: { range: 'bytes=0-2' },
    });
    expect([part.status, part.headers.get('content-range'), await part.text()]).toEqual([
      206,
      'bytes 0-2/9',
      'ID3',
    ]);
    expect(seen.length).toBe(before); // never the framework
    expect(whole.headers.get('x-request-id')).toBeTruthy(); // and the site's headers
    await fetch(`${base}/podcast/feed.xml`); // any other path: the framework
    expect(seen.at(-1)?.url).toBe('/podcast/feed.xml');
  });

  it('hands the framework the client’s address and none of our headers a client sent', async () => {
    const answer = await fetch(`${base}/terms`, {
      headers: {
        'x-axis-client-ip': '203.0.113.9',
        'x-axis-render': 'forged',
        'x-axis-refresh': 'forged',
        'x-axis-flash': 'forged',
        'x-forwarded-for': '198.51.100.7',
        'content-security-policy': "script-src 'nonce-chosenByTheClient'",
      },
    });
    expect(answer.status).toBe(200);
    const { headers, requestId } = seen.at(-1)!;
    expect(headers['x-axis-client-ip']).toBe('127.0.0.1'); // the socket's: no proxy is trusted
    expect(Object.keys(headers).filter((name) => name.startsWith('x-axis-'))).toEqual([
      'x-axis-client-ip',
    ]);
    expect(headers['content-security-policy']).not.toContain('chosenByTheClient');
    // The render runs in the request's context: the id the answer names.
    expect(requestId).toBe(answer.headers.get('x-request-id'));
  });

  it('answers a page again from the cache of its audience, with its scripts by hash', async () => {
    const first = await fetch(`${base}/about`);
    const again = await fetch(`${base}/about`, { headers: { 'x-axis-refresh': 'forged' } });
    expect(first.headers.get('x-page-cache')).toBeNull();
    expect(again.headers.get('x-page-cache')).toBe('hit');
    expect(await again.text()).toBe(await first.text());
    expect(rendersOf('/about')).toBe(1);
    const policy = again.headers.get('content-security-policy')!;
    expect(policy).not.toMatch(NONCE);
    expect(policy).toMatch(/'sha256-[^']+'/);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('does not answer a browser with the uncompressed copy a client without compression left', async () => {
    const plain = { headers: { 'accept-encoding': 'identity' } };
    await fetch(`${base}/insight`, plain);
    expect((await fetch(`${base}/insight`, plain)).headers.get('x-page-cache')).toBe('hit');
    // The browser's render (sent as the framework sends it) is kept for the next browser.
    expect((await fetch(`${base}/insight`)).headers.get('x-page-cache')).toBeNull();
    expect((await fetch(`${base}/insight`)).headers.get('x-page-cache')).toBe('hit');
    expect(rendersOf('/insight')).toBe(2);
  });

  it('keeps a render overtaken by an edit of public fields as the previous version, to renew', async () => {
    expect((await fetch(`${base}/posts/edited`)).headers.get('x-page-cache')).toBeNull();
    // Not rendered again for this reader: served while the server renews it.
    expect((await fetch(`${base}/posts/edited`)).headers.get('x-page-cache')).toBe('stale');
  });

  it('never keeps a render overtaken by an unpublication or a paywall switch', async () => {
    for (const path of ['/posts/unpublished', '/posts/paywalled']) {
      await fetch(`${base}${path}`);
      expect((await fetch(`${base}${path}`)).headers.get('x-page-cache'), path).toBeNull();
      expect(rendersOf(path), path).toBe(2);
    }
  });

  it('never keeps a page whose render read the user', async () => {
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${base}/faq`)).headers.get('x-page-cache')).toBeNull();
    expect(rendersOf('/faq')).toBe(2);
  });

  it('keeps no page of a gift link, and marks its answer its reader’s alone', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${base}/about?gift=AbCdEfGhIjKlMnOpQrSt_-`);
      expect(answer.headers.get('x-page-cache')).toBeNull();
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('refuses what the framework would answer with a 500, with the site’s headers', async () => {
    const before = seen.length;
    const malformed = await fetch(`${base}/%E0%A4%A`);
    const post = await fetch(`${base}/posts/abc`, { method: 'POST', body: 'a=1' });
    for (const answer of [malformed, post]) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-request-id')).toBeTruthy();
    }
    expect(seen.length).toBe(before);
  });
});

describe('a page request before the framework renders it', () => {
  const flash = encodeFlash({ message: '送信しました。', fieldErrors: {}, values: {} });
  const deletesFlash = (answer: Response) =>
    expect(answer.headers.get('set-cookie')).toMatch(/^axis_flash=; Path=\/; Max-Age=0;/);

  it('hands a page load its one-time message and deletes the cookie', async () => {
    const answer = await fetch(`${base}/contact`, {
      headers: { cookie: `axis_flash=${flash}`, 'sec-fetch-dest': 'document' },
    });
    expect(seen.at(-1)!.headers['x-axis-flash']).toBe(flash);
    deletesFlash(answer);
  });

  // A client that sends no fetch metadata (an older browser, a plain HTTP client) loads a page.
  it("leaves it to the page load: the router's segment fetches and prefetches keep it", async () => {
    for (const headers of [
      { 'sec-fetch-dest': 'empty', rsc: '1' } as Record<string, string>,
      { rsc: '1', 'next-router-prefetch': '1' },
      { rsc: '1' },
      { 'sec-fetch-dest': 'empty' },
    ]) {
      const answer = await fetch(`${base}/contact`, {
        headers: { ...headers, cookie: `axis_flash=${flash}` },
      });
      expect(seen.at(-1)!.headers['x-axis-flash']).toBeUndefined();
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  // The fuzz run's finding: `axis_flash=%00` made every page a 500 (Headers.set threw).
  it.each(['%00', '%00junk', '%E3%81%82', '%0d%0aSet-Cookie:%20x=1', 'a%20b', '"quoted"'])(
    'drops a forged flash cookie %s instead of failing the page, and deletes it',
    async (value) => {
      const answer = await fetch(`${base}/contact`, { headers: { cookie: `axis_flash=${value}` } });
      expect(answer.status).toBe(200);
      expect(seen.at(-1)!.headers['x-axis-flash']).toBeUndefined();
      deletesFlash(answer);
    },
  );

  it("answers a renamed item's old URL 301 to its new one, the query kept, before any render", async () => {
    const before = seen.length;
    for (const method of ['GET', 'HEAD']) {
      const answer = await fetch(`${base}/posts/old-slug?utm_source=x`, {
        method,
        redirect: 'manual',
      });
      expect(answer.status).toBe(301);
      expect(answer.headers.get('location')).toBe('/posts/new-slug?utm_source=x');
    }
    expect(seen.length).toBe(before);
  });

  it('answers a letter click that names an address itself 404, never a redirect nor a render', async () => {
    const before = seen.length;
    for (const path of [
      '/nl/c/https%3A%2F%2Fevil.example%2F/0',
      '/nl/c/0f8fad5b-d9cb-469f-a165-70867728950e/https%3A%2F%2Fevil.example',
      '/nl/c/0f8fad5b-d9cb-469f-a165-70867728950e/%2F%2Fevil.example',
      '/nl/go?to=https://evil.example',
    ]) {
      const answer = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('location'), path).toBeNull();
    }
    expect(seen.length).toBe(before);
  });

  it('sends the unsubscribe page 400 for a token that does not verify, and 200 for one that does', async () => {
    for (const query of ['?token=forged', '']) {
      const answer = await fetch(`${base}/newsletter/unsubscribe${query}`);
      expect(answer.status, query).toBe(400);
      expect(await answer.text()).toContain('/newsletter/unsubscribe'); // the page explains it
    }
    const token = unsubscribeToken('reader-1');
    expect((await fetch(`${base}/newsletter/unsubscribe?token=${token}`)).status).toBe(200);
  });
});
