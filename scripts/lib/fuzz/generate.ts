/**
 * Builds one malformed request from the seeded PRNG. Each kind stresses one way a request can
 * be wrong; every request also carries a random identity (anonymous, a member, an editor, an
 * admin, or a content API key with every permission) so that the checks behind sign-in and
 * roles are reached too.
 */
import {
  BAD_PERCENT,
  BAD_UTF8,
  INJECTIONS,
  JUNK_IDS,
  ODD_UNICODE,
  REDIRECT_TARGETS,
  frameworkHeaders,
  jsonBodies,
  typeConfusedValue,
  utf8,
} from './payloads';
import type { Rng } from './prng';
import { type Form, type Route, fillTemplate } from './routes';

export const IDENTITIES = ['anonymous', 'member', 'editor', 'admin', 'apiKey'] as const;
export type Identity = (typeof IDENTITIES)[number];

export const KINDS = [
  'method',
  'content-type',
  'form-fields',
  'huge-body',
  'deep-json',
  'broken-json',
  'percent-encoding',
  'unicode',
  'injection',
  'framework-headers',
  'cookies',
  'content-api-query',
  'content-api-write',
  'multipart',
  'raw-request',
] as const;
export type Kind = (typeof KINDS)[number];

export type FuzzRequest = {
  kind: Kind;
  identity: Identity;
  method: string;
  /** A latin1 byte string: sent byte for byte. */
  path: string;
  headers: [string, string][];
  body?: Buffer;
  /** Sent on a raw socket, with the identity's credentials: node:http would refuse it. */
  viaSocket?: boolean;
  /** Sent on a raw socket exactly as it is (broken request lines, a junk Host). */
  raw?: Buffer;
};

export type FuzzContext = {
  routes: Route[];
  forms: Form[];
  endpoints: { endpoint: string; list: boolean; fields: string[] }[];
  /** Real content ids by endpoint (published and drafts). */
  ids: Record<string, string[]>;
  /** A user the fuzz run may change (never one it signs in as). */
  targetUserId: string;
  /** `origin` of the build's SITE_URL: form posts carry it, as a browser would. */
  origin: string;
  /** Host header value of the server under test. */
  host: string;
  /** Bytes in a "huge" body. */
  hugeBytes: number;
  jsonDepth: number;
};

const ACCOUNT_FLOWS = [
  'sign-up',
  'sign-in',
  'sign-out',
  'forgot-password',
  'reset-password',
  'change-email',
  'edit-profile',
  'delete',
];
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const ODD_METHODS = [
  'PROPFIND',
  'TRACE',
  'TRACK',
  'CONNECT',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'SEARCH',
  'PURGE',
  'QUERY',
  'get',
  'post',
  'Get',
  'M'.repeat(300),
  'GET\x00',
  'G ET',
];
const CONTENT_TYPES = [
  '',
  'application/json',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=shift_jis',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="' + 'b'.repeat(200) + '"',
  'text/plain',
  'text/xml',
  'application/xml',
  'application/octet-stream',
  'image/png',
  '*/*',
  'application/json, text/html',
  ';;;',
  'x'.repeat(5000),
];

function realOrJunk(rng: Rng, real: string[]): string {
  return real.length && rng.chance(0.6) ? rng.pick(real) : encodeURIComponent(rng.pick(JUNK_IDS));
}

/** A value for a dynamic segment: a real id most of the time, junk otherwise. */
function paramValue(rng: Rng, ctx: FuzzContext, param: string, template: string): string {
  const all = Object.values(ctx.ids).flat();
  switch (param) {
    case 'endpoint':
      return rng.chance(0.85)
        ? rng.pick(ctx.endpoints).endpoint
        : encodeURIComponent(rng.pick(JUNK_IDS));
    case 'flow':
      return rng.chance(0.85) ? rng.pick(ACCOUNT_FLOWS) : encodeURIComponent(rng.pick(JUNK_IDS));
    case 'categoryId':
      return realOrJunk(rng, ctx.ids.categories ?? []);
    case 'partnerId':
      return realOrJunk(rng, ctx.ids.partners ?? []);
    case 'userId':
      return rng.chance(0.6) ? ctx.targetUserId : encodeURIComponent(rng.pick(JUNK_IDS));
    case 'file':
      return rng.pick(['posts-1.xml', 'pages.xml', 'index.xml', '../x.xml', 'a'.repeat(400)]);
    case 'path':
    case 'all':
      return rng.pick([
        'images/x.png',
        'demo/cover.jpg',
        '..%2f..%2fetc%2fpasswd',
        '%2e%2e/%2e%2e/package.json',
        'v1/customers',
        'v1/checkout/sessions/cs_junk',
        'get-session',
        'sign-in/email',
        'a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p',
        encodeURIComponent(rng.pick(JUNK_IDS)),
      ]);
    default: {
      const endpoint = template.match(/\/(posts|audios|movies|connect|jobs|feature)\//)?.[1];
      const real = endpoint
        ? (ctx.ids[endpoint === 'feature' ? 'categories' : endpoint] ?? [])
        : all;
      return realOrJunk(rng, real);
    }
  }
}

function pathOf(rng: Rng, ctx: FuzzContext, template: string): string {
  return fillTemplate(template, (param) => paramValue(rng, ctx, param, template));
}

function pickRoute(rng: Rng, ctx: FuzzContext, writable = false): Route {
  const candidates = writable
    ? ctx.routes.filter((r) => r.methods.some((m) => m !== 'GET' && m !== 'HEAD'))
    : ctx.routes;
  return rng.pick(candidates);
}

function oddValue(rng: Rng): string {
  return rng.pick([
    () => rng.pick(INJECTIONS),
    () => rng.pick(ODD_UNICODE),
    () => rng.pick(REDIRECT_TARGETS),
    () => rng.pick(JUNK_IDS),
    () => 'x'.repeat(rng.int(1000, 100_000)),
  ])();
}

/** application/x-www-form-urlencoded with missing, duplicated and array-style fields. */
function formBody(rng: Rng, fields: string[]): string {
  const parts: string[] = [];
  for (const field of fields) {
    if (rng.chance(0.3)) continue; // missing
    const name = rng.pick([
      field,
      field,
      `${field}[]`,
      `${field}[0]`,
      `${field}[a][b]`,
      `${field}.x`,
    ]);
    const copies = rng.chance(0.2) ? rng.int(2, 5) : 1; // duplicated
    for (let i = 0; i < copies; i++) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(oddValue(rng))}`);
    }
  }
  if (rng.chance(0.3)) parts.push(`${rng.pick(BAD_PERCENT)}=${rng.pick(BAD_PERCENT)}`);
  if (rng.chance(0.2)) parts.push('&&&==&');
  return parts.join('&');
}

function queryString(rng: Rng): string {
  const keys = ['q', 'next', 'page', 'limit', 'offset', 'sort', 'category', 'tag', 'redirect', 'a'];
  const parts: string[] = [];
  for (let i = rng.int(1, 4); i > 0; i--) {
    const value = rng.chance(0.5) ? rng.pick(BAD_PERCENT) : encodeURIComponent(oddValue(rng));
    parts.push(`${rng.pick(keys)}=${value.slice(0, 4000)}`);
  }
  return parts.join('&');
}

function contentApiQuery(rng: Rng, ctx: FuzzContext, fields: string[]): string {
  const field = () => (rng.chance(0.7) && fields.length ? rng.pick(fields) : rng.pick(JUNK_IDS));
  const ids = Object.values(ctx.ids).flat();
  const params: [string, string][] = [];
  const candidates: (() => [string, string])[] = [
    () => ['limit', rng.pick(['-1', '0', '101', '1e9', 'abc', '10', '', '1.5', '0x10'])],
    () => ['offset', rng.pick(['-5', '99999999999999999999', 'NaN', '2', ''])],
    () => ['orders', rng.pick(['-', '--publishedAt', `-${field()}`, 'title,,', field()])],
    () => ['q', oddValue(rng).slice(0, 2000)],
    () => ['fields', rng.pick(['', ',,,', `${field()},${field()}`, 'id,*', 'a.b.c.d'])],
    () => ['ids', [rng.pick(ids.length ? ids : ['x']), rng.pick(JUNK_IDS)].join(',')],
    () => [
      'filters',
      rng.pick([
        `${field()}[equals]${oddValue(rng).slice(0, 200)}`,
        `${field()}[contains]%`,
        `${field()}[less_than]abc`,
        `${field()}[greater_than]2026-13-01`,
        `${field()}[exists]`,
        `${field()}[begins_with]'--`,
        `${field()}[equals]a[or]${field()}[not_equals]b[and]`,
        '[equals]',
        'title[unknown_op]x',
        `${'('.repeat(500)}title[equals]x`,
        `${Array.from({ length: 300 }, () => 'title[equals]x').join('[or]')}`,
      ]),
    ],
    () => ['depth', rng.pick(['0', '4', '-1', '999', 'deep'])],
    () => ['draftKey', rng.pick(JUNK_IDS)],
    () => ['richEditorFormat', rng.pick(['html', 'object', 'x'])],
  ];
  for (let i = rng.int(1, 5); i > 0; i--) params.push(rng.pick(candidates)());
  return params
    .map(([k, v]) =>
      rng.chance(0.15) ? `${k}=${rng.pick(BAD_PERCENT)}` : `${k}=${encodeURIComponent(v)}`,
    )
    .join('&');
}

function jsonObjectOf(rng: Rng, fields: string[]): string {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (rng.chance(0.5)) body[field] = typeConfusedValue(rng.pick);
  }
  return JSON.stringify(body);
}

function multipartBody(rng: Rng, fields: string[]): { type: string; body: Buffer } {
  const boundary = rng.pick(['fuzz', '-'.repeat(70), 'a b', '"q"', '']);
  const type = rng.pick([
    `multipart/form-data; boundary=${boundary}`,
    'multipart/form-data',
    `multipart/form-data; boundary=other`,
  ]);
  const parts: string[] = [];
  for (const field of [...fields, 'file']) {
    if (rng.chance(0.4)) continue;
    const filename = rng.chance(0.5)
      ? `; filename="${rng.pick(['../../x.png', 'a\r\nb.png', '', 'x.svg', utf8(rng.pick(ODD_UNICODE)), 'a'.repeat(2000)])}"`
      : '';
    const ctype = rng.chance(0.5)
      ? `\r\nContent-Type: ${rng.pick(['image/png', 'image/svg+xml', 'text/html', 'x'])}`
      : '';
    const content = rng.pick([
      '\x89PNG\r\n\x1a\n' + 'x'.repeat(50),
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'GIF89a',
      oddValue(rng),
      '',
    ]);
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"${filename}${ctype}\r\n\r\n${content}\r\n`,
    );
  }
  let text = parts.join('');
  text += rng.pick([`--${boundary}--\r\n`, '', `--${boundary}`, '--\r\n']);
  if (rng.chance(0.2)) text = text.slice(0, rng.int(0, text.length)); // truncated
  return { type, body: Buffer.from(text, 'latin1') };
}

function formFor(rng: Rng, ctx: FuzzContext): { path: string; fields: string[] } {
  if (ctx.forms.length && rng.chance(0.7)) {
    const form = rng.pick(ctx.forms);
    const path = form.action.replace(/\[param\]/g, () => paramValue(rng, ctx, 'id', form.action));
    return { path, fields: form.fields };
  }
  const route = pickRoute(rng, ctx, true);
  const path = pathOf(rng, ctx, route.template);
  // The editorial console posts JSON of the content model's fields (no <form> to read).
  const endpoint = /^\/api\/admin\/content\/([^/]+)/.exec(path)?.[1];
  const model = ctx.endpoints.find((def) => def.endpoint === endpoint);
  const fields = model
    ? [...model.fields, 'status', 'revision', 'version']
    : ['title', 'name', 'email', 'id', 'status', 'plan', 'role'];
  return { path, fields };
}

/** Raw bytes of a request node:http would not send. */
function rawRequest(
  method: string,
  path: string,
  headers: [string, string][],
  body?: Buffer,
  version = 'HTTP/1.1',
): Buffer {
  const head =
    `${method} ${path} ${version}\r\n` +
    headers.map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    (body ? `Content-Length: ${body.length}\r\n` : '') +
    'Connection: close\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), body ?? Buffer.alloc(0)]);
}

export function generateRequest(rng: Rng, ctx: FuzzContext, kind: Kind): FuzzRequest {
  let identity: Identity = rng.pick(IDENTITIES);
  const base: [string, string][] = rng.chance(0.85) ? [['origin', ctx.origin]] : [];
  if (rng.chance(0.5)) base.push(['accept', 'application/json']);
  const req = (
    method: string,
    path: string,
    headers: [string, string][] = [],
    body?: Buffer,
  ): FuzzRequest => {
    // The run's own sessions stay signed in: a sign-out is sent without them.
    if (/\/api\/account\/sign-out/.test(path)) identity = 'anonymous';
    return { kind, identity, method, path, headers: [...base, ...headers], body };
  };

  switch (kind) {
    case 'method': {
      const route = pickRoute(rng, ctx);
      const path = pathOf(rng, ctx, route.template);
      const unsupported = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
        (m) => !route.methods.includes(m),
      );
      if (rng.chance(0.5) || unsupported.length === 0) {
        const method = rng.pick(ODD_METHODS);
        const r = req(method, path);
        return { ...r, viaSocket: true };
      }
      return req(rng.pick(unsupported), path, [], rng.chance(0.5) ? Buffer.from('a=1') : undefined);
    }
    case 'content-type': {
      const { path } = formFor(rng, ctx);
      const body = rng.pick([
        '{"email":"a@example.jp"}',
        'email=a%40example.jp&password=x',
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
        '\x00\x01\x02\xff',
        '',
      ]);
      const type = rng.pick(CONTENT_TYPES);
      return req(
        rng.pick(WRITE_METHODS),
        path,
        type ? [['content-type', type]] : [],
        Buffer.from(body, 'latin1'),
      );
    }
    case 'form-fields': {
      const { path, fields } = formFor(rng, ctx);
      return req(
        'POST',
        path,
        [['content-type', 'application/x-www-form-urlencoded']],
        Buffer.from(formBody(rng, fields)),
      );
    }
    case 'huge-body': {
      const { path, fields } = formFor(rng, ctx);
      const size = rng.int(ctx.hugeBytes / 2, ctx.hugeBytes);
      const shape = rng.pick(['field', 'pairs', 'json', 'json-array']);
      const field = fields.length ? rng.pick(fields) : 'title';
      const body =
        shape === 'field'
          ? `${field}=${'あ'.repeat(size / 9)}`
          : shape === 'pairs'
            ? Array.from({ length: size / 8 }, (_, i) => `f${i % 999}=1`).join('&')
            : shape === 'json'
              ? JSON.stringify({ [field]: 'x'.repeat(size) })
              : `[${'1,'.repeat(size / 2)}1]`;
      const type = shape.startsWith('json')
        ? 'application/json'
        : 'application/x-www-form-urlencoded';
      return req('POST', path, [['content-type', type]], Buffer.from(body));
    }
    case 'deep-json': {
      const { path } = formFor(rng, ctx);
      const body = rng.pick(jsonBodies(ctx.jsonDepth).slice(0, 3));
      return req(
        rng.pick(WRITE_METHODS),
        path,
        [['content-type', 'application/json']],
        Buffer.from(body),
      );
    }
    case 'broken-json': {
      const { path, fields } = formFor(rng, ctx);
      const body = rng.chance(0.5)
        ? rng.pick(jsonBodies(ctx.jsonDepth).slice(3))
        : jsonObjectOf(rng, fields);
      return req(
        rng.pick(WRITE_METHODS),
        path,
        [['content-type', 'application/json']],
        Buffer.from(body),
      );
    }
    case 'percent-encoding': {
      const route = pickRoute(rng, ctx);
      const path = pathOf(rng, ctx, route.template);
      const segments = path.split('/');
      const at = rng.int(1, Math.max(1, segments.length - 1));
      segments[at] = rng.pick([
        rng.pick(BAD_PERCENT),
        `${segments[at]}${rng.pick(BAD_PERCENT)}`,
        rng.pick(BAD_PERCENT).repeat(rng.int(2, 2000)),
      ]);
      const broken = `${segments.join('/')}${rng.chance(0.6) ? `?${queryString(rng)}` : ''}`;
      const method = rng.pick(route.methods);
      return req(method, broken);
    }
    case 'unicode': {
      const route = pickRoute(rng, ctx);
      const text = rng.chance(0.5) ? rng.pick(BAD_UTF8) : utf8(rng.pick(ODD_UNICODE));
      const where = rng.pick(['path', 'query', 'header', 'body']);
      const path = pathOf(rng, ctx, route.template);
      if (where === 'body') {
        const { path: formPath, fields } = formFor(rng, ctx);
        const body = fields.map((f) => `${f}=${text}`).join('&');
        return req(
          'POST',
          formPath,
          [['content-type', 'application/x-www-form-urlencoded']],
          Buffer.from(body, 'latin1'),
        );
      }
      const r =
        where === 'path'
          ? req(rng.pick(route.methods), `${path}/${text}`)
          : where === 'query'
            ? req(rng.pick(route.methods), `${path}?q=${text}&next=${text}`)
            : req(rng.pick(route.methods), path, [
                [rng.pick(['referer', 'user-agent', 'x-request-id', 'accept-language']), text],
              ]);
      return { ...r, viaSocket: true };
    }
    case 'injection': {
      const route = pickRoute(rng, ctx);
      const template = route.template;
      const injected = encodeURIComponent(rng.pick(INJECTIONS));
      const path = fillTemplate(template, () => injected);
      const query = rng.pick([
        'q',
        'next',
        'redirect',
        'callbackURL',
        'returnTo',
        'token',
        'id',
        'draftKey',
      ]);
      const target = rng.chance(0.5) ? rng.pick(REDIRECT_TARGETS) : rng.pick(INJECTIONS);
      return req(rng.pick(route.methods), `${path}?${query}=${encodeURIComponent(target)}`);
    }
    case 'framework-headers': {
      const route = pickRoute(rng, ctx);
      const path = pathOf(rng, ctx, route.template);
      const headers = frameworkHeaders(rng.pick, path);
      const method = rng.chance(0.3) ? 'POST' : rng.pick(route.methods);
      const r = req(method, path, headers, method === 'POST' ? Buffer.from('["$K1"]') : undefined);
      if (rng.chance(0.2)) {
        // Host header junk: needs a raw request (node:http sets its own Host).
        const host = rng.pick([
          'evil.example',
          '',
          'localhost:99999',
          'a'.repeat(3000),
          '[::1',
          'x@y',
          utf8('例え.テスト'),
        ]);
        return { ...r, raw: rawRequest(method, path, [['Host', host], ...r.headers], r.body) };
      }
      return r;
    }
    case 'cookies': {
      const route = pickRoute(rng, ctx);
      const path = pathOf(rng, ctx, route.template);
      const name = rng.pick([
        'axis.session_token',
        '__Secure-axis.session_token',
        'AXIS.SESSION_TOKEN',
        ' axis.session_token',
        'axis.session_token ',
        'axis.session_data',
        'axis.dont_remember',
        'axis_audience',
        'axis_flash',
        'axis_preview',
        '__prerender_bypass',
        '__next_preview_data',
        'axis.session_token=axis.session_token',
      ]);
      const value = rng.pick([
        '',
        '"',
        '""',
        'junk',
        'a.b.c',
        '%',
        '%00',
        'x'.repeat(8000),
        encodeURIComponent(rng.pick(INJECTIONS)),
        'member.' + 'A'.repeat(43),
        '\tspaced\t',
        '==',
      ]);
      const cookie = rng.chance(0.3) ? `${name}=${value}; ${name}=${value}2` : `${name}=${value}`;
      identity = 'anonymous';
      const r = req(rng.pick(route.methods), path, [['cookie', cookie]]);
      return r;
    }
    case 'content-api-query': {
      const def = rng.pick(ctx.endpoints);
      const ids = ctx.ids[def.endpoint] ?? [];
      const path =
        def.list && rng.chance(0.5)
          ? `/api/v1/${def.endpoint}/${realOrJunk(rng, ids)}`
          : `/api/v1/${def.endpoint}`;
      identity = rng.chance(0.8) ? 'apiKey' : identity;
      return req(
        rng.chance(0.9) ? 'GET' : 'HEAD',
        `${path}?${contentApiQuery(rng, ctx, def.fields)}`,
      );
    }
    case 'content-api-write': {
      const def = rng.pick(ctx.endpoints);
      const ids = ctx.ids[def.endpoint] ?? [];
      const method = rng.pick(WRITE_METHODS);
      const withId = def.list && (method !== 'POST' || rng.chance(0.3));
      const path = withId
        ? `/api/v1/${def.endpoint}/${realOrJunk(rng, ids)}`
        : `/api/v1/${def.endpoint}`;
      identity = rng.chance(0.85) ? 'apiKey' : identity;
      const query = rng.chance(0.3) ? `?status=${rng.pick(['draft', 'publish', 'x', ''])}` : '';
      const body = rng.chance(0.7)
        ? jsonObjectOf(rng, def.fields)
        : rng.pick(jsonBodies(ctx.jsonDepth));
      return req(
        method,
        `${path}${query}`,
        [
          [
            'content-type',
            rng.pick(['application/json', 'application/json', 'text/plain', '']),
          ].filter(([, v]) => v) as [string, string],
        ],
        Buffer.from(body),
      );
    }
    case 'multipart': {
      const { path, fields } = rng.chance(0.3)
        ? {
            path: rng.pick([
              '/api/media',
              '/api/admin/media',
              '/api/account/edit-profile',
              '/api/admin/transfer/import',
            ]),
            fields: ['alt', 'file', 'avatar', 'archive'],
          }
        : formFor(rng, ctx);
      const { type, body } = multipartBody(rng, fields);
      if (path === '/api/media' && rng.chance(0.7)) identity = 'apiKey';
      return req('POST', path, [['content-type', type]], body);
    }
    case 'raw-request': {
      const route = pickRoute(rng, ctx);
      const path = pathOf(rng, ctx, route.template);
      const raw = rng.pick([
        () =>
          rawRequest(
            'GET',
            path,
            [['Host', ctx.host]],
            undefined,
            rng.pick(['HTTP/9.9', 'HTTP/1', 'HTTP/1.1x', '', 'HTTPS/1.1']),
          ),
        () => rawRequest('GET', `http://evil.example${path}`, [['Host', ctx.host]]),
        () => rawRequest('GET', `/${'a'.repeat(rng.int(9000, 90_000))}`, [['Host', ctx.host]]),
        () =>
          rawRequest('GET', path, [
            ['Host', ctx.host],
            ['X-Bad', 'a\x00b'],
          ]),
        () =>
          rawRequest('GET', path, [
            ['Host', ctx.host],
            ['X-Fold', 'a\r\n b'],
          ]),
        () =>
          rawRequest('GET', path, [
            ['Host', ctx.host],
            ['Bad Header', 'x'],
          ]),
        () =>
          rawRequest('GET', path, [
            ['Host', ctx.host],
            ['Host', 'evil.example'],
          ]),
        () =>
          rawRequest(
            'POST',
            path,
            [
              ['Host', ctx.host],
              ['Transfer-Encoding', 'chunked'],
            ],
            Buffer.from('zz\r\nxx\r\n0\r\n\r\n'),
          ),
        () =>
          rawRequest(
            'POST',
            path,
            [
              ['Host', ctx.host],
              ['Content-Length', '5'],
              ['Transfer-Encoding', 'chunked'],
            ],
            Buffer.from('0\r\n\r\n'),
          ),
        () =>
          Buffer.from(
            `GET ${path} HTTP/1.1\r\nHost: ${ctx.host}\r\nContent-Length: -1\r\n\r\n`,
            'latin1',
          ),
        () =>
          Buffer.from(
            `GET ${path} HTTP/1.1\r\nHost: ${ctx.host}\r\n${'X-Many: 1\r\n'.repeat(3000)}\r\n`,
            'latin1',
          ),
        () => Buffer.from(`\r\n\r\nGET ${path}\r\n\r\n`, 'latin1'),
        () => Buffer.from('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 'latin1'), // a TLS hello
        () => Buffer.from(`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, 'latin1'),
      ])();
      return { ...req('GET', path), raw };
    }
  }
}
