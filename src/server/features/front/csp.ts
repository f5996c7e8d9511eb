import 'server-only';
import { createHash, randomFillSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { singleton } from '@/lib/singleton';
import { tagManagerSnippet } from '@/lib/analytics/tag-manager';
import { CSP_HEADER, NON_PAGE_POLICY, isConsolePath, pagePolicy } from '@/lib/security-headers';
import { THEME_SCRIPT } from '@/lib/theme/theme-script';

/**
 * The Content-Security-Policy of the pages the framework renders
 * (docs/decisions/013-production.md).
 *
 * - A fresh render gets a fresh nonce: Next.js puts the nonce of the *request's*
 *   `Content-Security-Policy` header on its own inline and bootstrap scripts
 *   (node_modules/next/dist/server/app-render/get-script-nonce-from-header.js, called from
 *   next/dist/server/route-modules/app-page/parse-request-headers.js). The front server writes
 *   that request header itself, so a client can never choose the nonce.
 * - A page served again from the page cache carries a nonce that is no longer secret: its
 *   policy names the sha256 of each of its inline scripts instead (cachedPagePolicy).
 * - A page prerendered at build time (the 404 page) has no nonce at all: its scripts' hashes
 *   are read from the build once.
 * - Our own inline scripts, the colour scheme's (src/lib/theme/theme-script.ts) and the GTM
 *   snippet, are the same text on every page: allowed by hash.
 */

const REQUEST_POLICY_HEADERS = ['content-security-policy', 'content-security-policy-report-only'];

/**
 * 128 random bits, base64 (what CSP's nonce-source and Next's nonce pattern accept). Cut from a
 * pool the system's generator fills 256 nonces at a time, each byte used once (as Node's
 * randomUUID does): one call to it per render cost more than the nonce.
 */
export function newNonce(): string {
  const nonces = noncePool();
  if (nonces.at === nonces.pool.length) {
    randomFillSync(nonces.pool);
    nonces.at = 0;
  }
  nonces.at += NONCE_BYTES;
  return nonces.pool.toString('base64', nonces.at - NONCE_BYTES, nonces.at);
}
const NONCE_BYTES = 16;
const noncePool = () =>
  singleton('csp-nonce-pool', () => ({
    pool: Buffer.alloc(NONCE_BYTES * 256),
    at: NONCE_BYTES * 256,
  }));

/**
 * The hash source a browser computes for an inline script: sha256 of its text in UTF-8, after
 * the HTML parser turned CR LF and lone CR into LF and NUL into U+FFFD.
 */
export function scriptHash(text: string): string {
  const parsed = text.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
  return `'sha256-${createHash('sha256').update(parsed, 'utf8').digest('base64')}'`;
}

const JAVASCRIPT_TYPE =
  /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript)|module|importmap|speculationrules)$/;

/** Whether a script element with this `type` runs (a data block such as JSON-LD does not). */
function runs(type: string | undefined): boolean {
  const value = (type ?? '').trim().toLowerCase();
  return value === '' || JAVASCRIPT_TYPE.test(value);
}

/**
 * The hash sources of the inline scripts of a document, in order, once each: every
 * `<script>` without `src` whose type runs, whatever other attributes (a stale nonce) it has.
 * htmlparser2 reads a script's text raw, as a browser does (no entities, comments or markup
 * inside). A script a browser would read differently (`<!--<script>` inside one) gets a hash
 * that matches nothing: it is blocked, never let through.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  let text: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        text = name === 'script' && !('src' in attributes) && runs(attributes.type) ? '' : null;
      },
      ontext(chunk) {
        if (text !== null) text += chunk;
      },
      onclosetag(name) {
        if (name === 'script' && text !== null) hashes.add(scriptHash(text));
        text = null;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return [...hashes];
}

/** A stored body as text, or null when its coding cannot be read. */
export function decodeBody(body: Buffer, contentEncoding: unknown): string | null {
  const coding = typeof contentEncoding === 'string' ? contentEncoding.trim().toLowerCase() : '';
  try {
    if (coding === '' || coding === 'identity') return body.toString('utf8');
    if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
    if (coding === 'gzip') return gunzipSync(body).toString('utf8');
    if (coding === 'deflate') {
      // HTTP's deflate is zlib-wrapped; some servers send it raw.
      try {
        return inflateSync(body).toString('utf8');
      } catch {
        return inflateRawSync(body).toString('utf8');
      }
    }
  } catch {
    return null;
  }
  return null;
}

/** The policy with every nonce in script-src replaced by these hash sources. */
export function withScriptHashes(policy: string, hashes: readonly string[]): string {
  return policy
    .split(';')
    .map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/);
      if (name.toLowerCase() !== 'script-src') return directive.trim();
      const kept = sources.filter((source) => !/^'nonce-/i.test(source));
      return [name, ...new Set([...kept, ...hashes])].join(' ');
    })
    .join('; ');
}

/**
 * The policy to store with a captured page: its nonce out, the hashes of its inline scripts
 * in (HTML only: an RSC answer runs nothing). Null when the body cannot be read, so the page
 * is not stored rather than replayed with scripts its policy would block.
 */
export function cachedPagePolicy(
  policy: string,
  contentType: unknown,
  body: Buffer,
  contentEncoding: unknown,
): string | null {
  const html = typeof contentType === 'string' && contentType.startsWith('text/html');
  if (!html) return withScriptHashes(policy, []);
  const text = decodeBody(body, contentEncoding);
  return text === null ? null : withScriptHashes(policy, inlineScriptHashes(text));
}

/** The hash of the GTM snippet the root layout inlines (src/lib/analytics/tag-manager.ts). */
export function tagManagerHash(gtmId: string): string | null {
  return scriptHash(tagManagerSnippet(gtmId));
}

/**
 * The hashes of the inline scripts of the pages `next build` prerendered (the HTML files its
 * prerender manifest names). The framework serves those files as they are, with no nonce.
 */
export function prerenderedScriptHashes(distDir: string): string[] {
  let routes: string[];
  try {
    const manifest = JSON.parse(
      readFileSync(path.join(distDir, 'prerender-manifest.json'), 'utf8'),
    ) as { routes?: Record<string, unknown> };
    routes = Object.keys(manifest.routes ?? {});
  } catch (error) {
    console.warn(
      '[csp] 事前生成ページの一覧を読めません。404 ページのスクリプトが止まります (cannot read the prerender manifest):',
      error instanceof Error ? error.message : error,
    );
    return [];
  }
  const hashes = new Set<string>();
  for (const route of routes) {
    const file = path.join(distDir, 'server', 'app', `${route === '/' ? '/index' : route}.html`);
    if (!existsSync(file)) continue; // an image, robots.txt: no HTML
    for (const hash of inlineScriptHashes(readFileSync(file, 'utf8'))) hashes.add(hash);
  }
  return [...hashes];
}

export type PagePolicies = {
  /** A fresh render's policy: its nonce, GTM's hash; a console page's images (pagePolicy). */
  live(nonce: string, staffConsole?: boolean): string;
  /** An answer that may be a prerendered page (an error, or marked so): its hashes too. */
  prerendered(nonce: string, staffConsole?: boolean): string;
};

/** Where the nonce goes in a policy written ahead (no base64 nonce contains it). */
const NONCE_SLOT = '\u0000';

export function pagePolicies(options: {
  secure: boolean;
  gtmId?: string | undefined;
  prerenderedHashes: readonly string[];
  /** `npm run dev`: the framework's client runs scripts no nonce names (pagePolicy). */
  development?: boolean;
}): PagePolicies {
  const gtm = options.gtmId ? tagManagerHash(options.gtmId) : null;
  const ours = [scriptHash(THEME_SCRIPT), ...(gtm ? [gtm] : [])];
  const policy = (sources: string[], staffConsole = false) =>
    pagePolicy({
      scriptSources: sources,
      secure: options.secure,
      tagManager: gtm !== null,
      staffConsole,
      development: options.development,
    });
  // Each policy differs from one render to the next by its nonce alone: written once for each
  // kind of page, around the nonce's place (building it was a fiftieth of a millisecond a render).
  const around = (sources: string[]) => {
    const [page, consolePage] = [false, true].map((staffConsole) => {
      const [before, after] = policy([`'nonce-${NONCE_SLOT}'`, ...sources], staffConsole).split(
        NONCE_SLOT,
      );
      return { before: before!, after: after! };
    });
    return (nonce: string, staffConsole = false) => {
      const { before, after } = staffConsole ? consolePage! : page!;
      return before + nonce + after;
    };
  };
  return {
    live: around(ours),
    prerendered: around([...ours, ...options.prerenderedHashes]),
  };
}

/**
 * The framework's files and optimised images: nothing renders there, so they keep the policy
 * the front server set first (NON_PAGE_POLICY, which fails closed should one ever be a page),
 * and no nonce changes their headers each time.
 */
const FRAMEWORK_FILES = /^\/_next\/(?:static|image)(?:[/?]|$)/;

/** The policy a render was given: what its answer's head gets (policyAtHead). */
export type GivenPolicy = {
  live: string;
  nonce: string;
  policies: PagePolicies;
  /** A page of the staff console (isConsolePath). */
  staffConsole: boolean;
};

/**
 * Before the framework sees a request: a fresh nonce in the request's policy header (any the
 * client sent is replaced, report-only included, which Next would read too) and the same
 * policy on the answer. Null for the framework's files, which keep the policy they had.
 */
export function givePagePolicy(
  req: IncomingMessage,
  res: ServerResponse,
  policies: PagePolicies,
): GivenPolicy | null {
  for (const name of REQUEST_POLICY_HEADERS) delete req.headers[name];
  if (FRAMEWORK_FILES.test(req.url ?? '/')) return null;
  const nonce = newNonce();
  const staffConsole = isConsolePath(req.url ?? '/');
  const live = policies.live(nonce, staffConsole);
  req.headers['content-security-policy'] = live;
  res.setHeader(CSP_HEADER, live);
  return { live, nonce, policies, staffConsole };
}

/**
 * The content type of an answer about to be written: set on the response, or given to
 * writeHead (an object, or Node's flat [name, value, …] array).
 */
function contentTypeOf(res: ServerResponse, writeHeadArgs: readonly unknown[]): string | undefined {
  const headers = writeHeadArgs.find((arg) => typeof arg === 'object' && arg !== null);
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (String(headers[i]).toLowerCase() === 'content-type') return String(headers[i + 1]);
  } else if (headers) {
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === 'content-type') return String(value);
  }
  const set = res.getHeader('content-type');
  return set === undefined ? undefined : String(set);
}

/**
 * Whether an answer is a page the browser renders with the page policy: HTML, or the RSC
 * payload of one. An answer with no body type (a redirect, a 304 whose page the browser keeps)
 * keeps the page policy too, so a revalidated page never gets a policy that blocks it. Anything
 * else the framework answers (JSON of the API routes, feeds, files) runs, loads and frames
 * nothing: NON_PAGE_POLICY, as the front server's own answers.
 */
export function isPageAnswer(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'text/html' || type === 'text/x-component';
}

/**
 * As the head of a render's answer is written (src/server/features/front/front-response.ts), while it
 * still carries the policy it was given: an answer that is not a page (JSON…) gets
 * NON_PAGE_POLICY; one the framework marks prerendered, or an error page (the 404 of an unknown
 * path is a prerendered file), the prerendered pages' hashes as well.
 */
export function policyAtHead(
  given: GivenPolicy,
  res: ServerResponse,
  status: number,
  writeHeadArgs: readonly unknown[],
): void {
  if (res.getHeader(CSP_HEADER) !== given.live) return;
  if (!isPageAnswer(contentTypeOf(res, writeHeadArgs))) res.setHeader(CSP_HEADER, NON_PAGE_POLICY);
  else if (status >= 400 || res.getHeader('x-nextjs-prerender') === '1')
    res.setHeader(CSP_HEADER, given.policies.prerendered(given.nonce, given.staffConsole));
}
