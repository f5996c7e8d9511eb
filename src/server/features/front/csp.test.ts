import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tagManagerSnippet } from '@/lib/analytics/tag-manager';
import { NON_PAGE_POLICY, pagePolicy } from '@/lib/security-headers';
import { THEME_SCRIPT } from '@/lib/theme/theme-script';
import {
  cachedPagePolicy,
  decodeBody,
  inlineScriptHashes,
  isPageAnswer,
  newNonce,
  pagePolicies,
  prerenderedScriptHashes,
  givePagePolicy,
  scriptHash,
  withScriptHashes,
} from './csp';
import { createFrontServer } from './front-response';

/** The sources of one directive of a policy. */
function directive(policy: string, name: string): string[] {
  const found = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found ? found.slice(1) : [];
}

const nonceIn = (policy: string) =>
  directive(policy, 'script-src').find((s) => s.startsWith("'nonce-"));

describe('newNonce', () => {
  it('is 128 random bits in base64, the form Next.js takes from the policy, new each time (across refills of its pool)', () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => newNonce()));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
    }
  });
});

describe('scriptHash', () => {
  it('is the hash source a browser computes (CSP spec example, multi-byte text)', () => {
    expect(scriptHash("alert('Hello, world.');")).toBe(
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
    );
    // UTF-8 bytes, not UTF-16 code units (computed apart, with Python's hashlib).
    expect(scriptHash('document.title = "日本語のタイトル";')).toBe(
      "'sha256-0yYMlRTM7KfLQ5nsIQpysjL6OREZJ0usquZSaAoxfAM='",
    );
  });

  it('hashes the text after the parser normalised its line ends', () => {
    expect(scriptHash('a();\r\nb();\rc();')).toBe(scriptHash('a();\nb();\nc();'));
  });
});

describe('inlineScriptHashes', () => {
  it('hashes every inline script that runs, whatever its attributes, once each', () => {
    const html = [
      '<!DOCTYPE html><html><head>',
      '<script nonce="stale" async>self.a=1</script>',
      '<script src="/_next/static/chunks/a.js" async nonce="stale"></script>',
      '<script type="application/ld+json">{"@type":"Article"}</script>',
      '<SCRIPT TYPE="text/javascript" data-x="a > b">self.b=2</SCRIPT>',
      '<script type="module">import("/m.js")</script>',
      '</head><body><p>本文</p>',
      '<script>self.__next_f.push([1,"<p>日本語</p> &amp; a<b"])</script>',
      '<!-- <script>commented()</script> -->',
      '<textarea><script>typed()</script></textarea>',
      '<script nonce="other">self.a=1</script>',
      '</body></html>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([
      scriptHash('self.a=1'),
      scriptHash('self.b=2'),
      scriptHash('import("/m.js")'),
      // Raw text: no entity is decoded inside a script.
      scriptHash('self.__next_f.push([1,"<p>日本語</p> &amp; a<b"])'),
    ]);
  });

  it('finds nothing in a page without inline scripts', () => {
    expect(inlineScriptHashes('<p>a</p><script src="/a.js"></script>')).toEqual([]);
  });
});

describe('decodeBody', () => {
  const html = '<p>日本語</p>'.repeat(50);
  it.each([
    ['identity', Buffer.from(html)],
    [undefined, Buffer.from(html)],
    ['gzip', gzipSync(html)],
    ['br', brotliCompressSync(html)],
    ['deflate', deflateSync(html)],
    ['deflate', deflateRawSync(html)],
  ])('reads a %s body', (coding, body) => {
    expect(decodeBody(body, coding)).toBe(html);
  });

  it('gives up on a body that is not what its coding says, or a coding it does not know', () => {
    expect(decodeBody(Buffer.from(html), 'gzip')).toBeNull();
    expect(decodeBody(Buffer.from(html), 'zstd')).toBeNull();
  });
});

const LIVE =
  "default-src 'self'; script-src 'self' 'nonce-AAAAAAAAAAAAAAAAAAAAAA==' 'sha256-gtm='; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'";

describe('withScriptHashes / cachedPagePolicy', () => {
  it('replaces the nonce with the hashes and leaves the rest as it was', () => {
    expect(withScriptHashes(LIVE, ["'sha256-x='", "'sha256-gtm='"])).toBe(
      "default-src 'self'; script-src 'self' 'sha256-gtm=' 'sha256-x='; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
    );
  });

  it('hashes the scripts of a compressed page; an RSC answer only loses the nonce', () => {
    const html = '<script nonce="AAAAAAAAAAAAAAAAAAAAAA==">self.x=1</script>';
    const policy = cachedPagePolicy(
      LIVE,
      'text/html; charset=utf-8',
      brotliCompressSync(html),
      'br',
    );
    expect(policy).not.toContain('nonce-');
    expect(directive(policy!, 'script-src')).toEqual([
      "'self'",
      "'sha256-gtm='",
      scriptHash('self.x=1'),
    ]);
    expect(
      directive(
        cachedPagePolicy(LIVE, 'text/x-component', Buffer.from('0:{}'), undefined)!,
        'script-src',
      ),
    ).toEqual(["'self'", "'sha256-gtm='"]);
    expect(cachedPagePolicy(LIVE, 'text/html', Buffer.from(html), 'gzip')).toBeNull();
  });
});

describe('pagePolicies', () => {
  it('allows the GTM snippet the layout renders, by its hash', () => {
    const [snippet] = inlineScriptHashes(`<script>${tagManagerSnippet('GTM-ABC123')}</script>`);
    const policies = pagePolicies({ secure: true, gtmId: 'GTM-ABC123', prerenderedHashes: [] });
    const scripts = directive(policies.live('n0nce'), 'script-src');
    expect(scripts).toContain(snippet);
    expect(scripts).toContain("'nonce-n0nce'");
    expect(scripts).toContain('https://*.googletagmanager.com');
    // Another container is another snippet.
    const other = pagePolicies({ secure: true, gtmId: 'GTM-XYZ999', prerenderedHashes: [] });
    expect(directive(other.live('n'), 'script-src')).not.toContain(snippet);
  });

  it('allows the colour scheme’s script the layout puts in every head, by its hash', () => {
    const [theme] = inlineScriptHashes(`<head><script>${THEME_SCRIPT}</script></head>`);
    const policies = pagePolicies({ secure: false, gtmId: undefined, prerenderedHashes: [] });
    expect(directive(policies.live('n'), 'script-src')).toContain(theme);
    expect(directive(policies.prerendered('n'), 'script-src')).toContain(theme);
  });

  it('adds the prerendered pages’ hashes only to the policy for those', () => {
    const policies = pagePolicies({
      secure: false,
      gtmId: undefined,
      prerenderedHashes: ["'sha256-static='"],
    });
    const theme = scriptHash(THEME_SCRIPT);
    expect(directive(policies.live('n'), 'script-src')).toEqual(["'self'", "'nonce-n'", theme]);
    expect(directive(policies.prerendered('n'), 'script-src')).toEqual([
      "'self'",
      "'nonce-n'",
      theme,
      "'sha256-static='",
    ]);
  });

  it('writes each render’s nonce into the policy of its kind of page, and nothing else changes', () => {
    const policies = pagePolicies({ secure: true, gtmId: undefined, prerenderedHashes: [] });
    for (const staffConsole of [false, true])
      for (const nonce of ['bm9uY2Ux', 'b3RoZXI+/A==']) {
        const sources = ["'nonce-" + nonce + "'", scriptHash(THEME_SCRIPT)];
        const written = (scriptSources: string[]) =>
          pagePolicy({ scriptSources, secure: true, tagManager: false, staffConsole });
        expect(policies.live(nonce, staffConsole)).toBe(written(sources));
        expect(policies.prerendered(nonce, staffConsole)).toBe(written(sources));
      }
    expect(directive(policies.live('n', true), 'img-src')).toContain('https://i.ytimg.com');
    expect(directive(policies.live('n'), 'img-src')).not.toContain('https://i.ytimg.com');
  });
});

describe('prerenderedScriptHashes', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('reads the HTML of every prerendered route of the build', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'csp-build-'));
    mkdirSync(path.join(dir, 'server', 'app'), { recursive: true });
    writeFileSync(
      path.join(dir, 'prerender-manifest.json'),
      JSON.stringify({ routes: { '/_not-found': {}, '/': {}, '/robots.txt': {} } }),
    );
    writeFileSync(
      path.join(dir, 'server', 'app', '_not-found.html'),
      '<script>self.nf=1</script><script src="/a.js"></script>',
    );
    writeFileSync(path.join(dir, 'server', 'app', 'index.html'), '<script>self.home=1</script>');
    expect(prerenderedScriptHashes(dir)).toEqual([
      scriptHash('self.nf=1'),
      scriptHash('self.home=1'),
    ]);
  });

  it('warns and allows nothing more without a build', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(prerenderedScriptHashes('/nonexistent/.next')).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('事前生成ページ'), expect.anything());
  });
});

describe('the page policy of a render', () => {
  const policies = pagePolicies({
    secure: false,
    gtmId: undefined,
    prerenderedHashes: ["'sha256-static='"],
  });

  /**
   * `app` given the page policy on a real server, as the pipeline gives it to the framework;
   * `before` runs first (what set a header).
   */
  async function servePolicy(
    app: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
    before?: (res: http.ServerResponse) => void,
  ) {
    const server = createFrontServer((req, res) => {
      before?.(res);
      res.pagePolicy = givePagePolicy(req, res, policies);
      void app(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      /** The policy the answer to a GET of `path` carries. */
      policyOf: async (path: string) =>
        (await fetch(url + path)).headers.get('content-security-policy'),
      close: () => new Promise((r) => server.close(r)),
    };
  }

  it('gives the framework a fresh nonce of its own, never one a client sent', async () => {
    const seen: (string | undefined)[] = [];
    const reportOnly: unknown[] = [];
    const server = await servePolicy((req, res) => {
      seen.push(req.headers['content-security-policy'] as string | undefined);
      reportOnly.push(req.headers['content-security-policy-report-only']);
      res.setHeader('content-type', 'text/html');
      res.end('<p>ok</p>');
      return Promise.resolve();
    });
    const answers = [];
    for (let i = 0; i < 2; i++) {
      answers.push(
        await fetch(server.url, {
          headers: {
            'content-security-policy': "script-src 'nonce-chosenByTheClient'",
            'content-security-policy-report-only': "script-src 'nonce-chosenByTheClient'",
          },
        }),
      );
    }
    await server.close();
    const policies0 = answers.map((a) => a.headers.get('content-security-policy'));
    // The answer carries the very policy the framework was given.
    expect(policies0).toEqual(seen);
    const nonces = policies0.map((p) =>
      directive(p!, 'script-src').find((s) => s.startsWith("'nonce-")),
    );
    expect(nonces[0]).toMatch(/^'nonce-[A-Za-z0-9+/]{22}=='$/);
    expect(nonces[1]).not.toBe(nonces[0]);
    expect(seen.join()).not.toContain('chosenByTheClient');
    expect(reportOnly).toEqual([undefined, undefined]); // Next would read that one too
    expect(directive(policies0[0]!, 'script-src')).not.toContain("'sha256-static='");
  });

  it('leaves the framework’s files and images with the policy they had, and no nonce', async () => {
    const server = await servePolicy(
      (_req, res) => {
        res.end('x');
        return Promise.resolve();
      },
      (res) => res.setHeader('content-security-policy', "default-src 'none'"),
    );
    for (const file of ['/_next/static/chunks/a.js', '/_next/image?url=%2Fa.png&w=64&q=75'])
      expect(await server.policyOf(file), file).toBe("default-src 'none'");
    expect(nonceIn((await server.policyOf('/_next/data'))!)).toBeDefined();
    await server.close();
  });

  it('adds the prerendered pages’ hashes to an error page and to a prerendered answer', async () => {
    const server = await servePolicy((req, res) => {
      if (req.url === '/missing') res.statusCode = 404;
      if (req.url === '/static') res.setHeader('x-nextjs-prerender', '1');
      res.end('x');
      return Promise.resolve();
    });
    const scripts = async (p: string) => directive((await server.policyOf(p))!, 'script-src');
    expect(await scripts('/missing')).toContain("'sha256-static='");
    expect(await scripts('/static')).toContain("'sha256-static='");
    expect(await scripts('/page')).not.toContain("'sha256-static='");
    // The render's own nonce stays: a 404 rendered on request has its scripts marked with it.
    expect((await scripts('/missing')).some((s) => s.startsWith("'nonce-"))).toBe(true);
    await server.close();
  });

  it('lets a console page, and its error page, show the newsletter preview’s stills', async () => {
    const server = await servePolicy((req, res) => {
      if (req.url?.endsWith('/missing')) res.statusCode = 404;
      res.setHeader('content-type', 'text/html');
      res.end('x');
      return Promise.resolve();
    });
    const images = async (p: string) => directive((await server.policyOf(p))!, 'img-src');
    for (const p of [
      '/admin/content/posts/p1/newsletter',
      '/admin/content/posts/p1/newsletter?_rsc=1',
      '/admin/missing',
    ])
      expect(await images(p), p).toContain('https://i.ytimg.com');
    expect(directive((await server.policyOf('/admin/missing'))!, 'script-src')).toContain(
      "'sha256-static='",
    );
    for (const p of ['/', '/posts/p1', '/missing', '/administrator'])
      expect(await images(p), p).not.toContain('https://i.ytimg.com');
    await server.close();
  });

  it('gives an answer that is not a page the non-page policy, however its head is written', async () => {
    const server = await servePolicy((req, res) => {
      if (req.url === '/object') res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url === '/array') res.writeHead(200, ['content-type', 'text/plain']);
      if (req.url === '/set') res.setHeader('content-type', 'application/feed+json');
      if (req.url === '/rsc') res.setHeader('content-type', 'text/x-component');
      res.end('{}');
      return Promise.resolve();
    });
    for (const p of ['/object', '/array', '/set'])
      expect(await server.policyOf(p), p).toBe(NON_PAGE_POLICY);
    expect(nonceIn((await server.policyOf('/rsc'))!)).toBeDefined();
    // No body type (a redirect, a 304): the page policy stays.
    expect(nonceIn((await server.policyOf('/none'))!)).toBeDefined();
    await server.close();
  });
});

describe('isPageAnswer', () => {
  it('is HTML, an RSC payload, or an answer with no body type', () => {
    for (const type of ['text/html; charset=utf-8', 'TEXT/HTML', 'text/x-component', undefined])
      expect(isPageAnswer(type), type).toBe(true);
    for (const type of ['application/json', 'text/plain', 'image/svg+xml', 'application/xml'])
      expect(isPageAnswer(type), type).toBe(false);
  });
});
