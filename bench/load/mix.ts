/**
 * The mixed workload: one class per kind of visitor or client, each its own autocannon instance
 * with its share of the connections, so that every class is counted apart.
 */
import type autocannon from 'autocannon';
import type { CookieJar, Member, Navigation } from './session';

type Request = autocannon.Request;
/** What autocannon keeps per connection between the requests of one cycle. */
type Context = { item?: string; id?: string };

export type LoadClass = {
  name: string;
  /** Share of the connections, in hundredths. */
  weight: number;
  requests: Request[];
  /** Requests per second for the whole class, when it is paced. */
  overallRate?: number;
};

export type Site = {
  siteUrl: string;
  ids: string[];
  jar: CookieJar;
  readKey: string;
  writeKey: string;
  navigations: Navigation[];
  /** Content API writes per second (PATCH, POST and DELETE together). */
  writeRate: number;
  /**
   * `--mix metered`: the free members whose page loads the metered wall counts, each its cookies
   * as its browser holds them (renewed in place by the caller).
   */
  metered?: string[];
};

/** What readers read: the home page, the lists and articles. */
export function readingPaths(ids: string[]): string[] {
  return [
    '/',
    '/posts',
    '/posts?page=2',
    '/series',
    '/audios',
    '/movies',
    '/jobs',
    ...ids.map((id) => `/posts/${id}`),
  ];
}

const SEARCHES = [
  'デザイン',
  '建築',
  '照明',
  '書体',
  '展覧会',
  '家具',
  '余白',
  '陶磁器',
  '写真 展覧会',
  '都市と光',
  '素材',
  'パッケージ デザイン',
];

/**
 * Search is limited per client address (60 a minute). The server trusts X-Forwarded-For
 * (TRUST_PROXY=true) and each search comes from the next of 4,096 addresses of 198.18.0.0/20,
 * the range set aside for benchmarks (RFC 2544): the limit is not what is measured here.
 */
export const SEARCH_ADDRESSES = '198.18.0.0/20 (4,096 addresses, RFC 2544)';
let searches = 0;
function nextSearch(request: Request): Request {
  const n = searches++;
  const q = SEARCHES[n % SEARCHES.length]!;
  return {
    ...request,
    path: `/search?q=${encodeURIComponent(q)}`,
    headers: {
      ...request.headers,
      'x-forwarded-for': `198.18.${(n >> 8) & 15}.${n & 255}`,
    },
  };
}

let picks = 0;
const pick = <T>(items: T[]): T => items[picks++ % items.length]!;

/** The request with the member's current cookies. */
const withCookies =
  (jar: CookieJar, member: Member | null) =>
  (request: Request): Request =>
    member ? { ...request, headers: { ...request.headers, cookie: jar[member] } } : request;

/** A GET, with a member's current cookies when one is named. */
const getter =
  (site: Site) =>
  (path: string, headers: Record<string, string> = {}, member: Member | null = null): Request => ({
    method: 'GET',
    path,
    headers,
    ...(member ? { setupRequest: withCookies(site.jar, member) } : {}),
  });

/** Readers of each audience over the lists and articles, and client navigations, by weight. */
function readingClasses(
  site: Site,
  weights: { anonymous: number; free: number; paid: number; navigation: number },
): LoadClass[] {
  const reading = readingPaths(site.ids);
  const get = getter(site);
  return [
    {
      name: '匿名の読者 (anonymous reading)',
      weight: weights.anonymous,
      requests: reading.map((p) => get(p)),
    },
    {
      name: '無料会員 (free member reading)',
      weight: weights.free,
      requests: reading.map((p) => get(p, {}, 'free')),
    },
    {
      name: '有料会員 (paid member reading)',
      weight: weights.paid,
      requests: reading.map((p) => get(p, {}, 'paid')),
    },
    {
      name: 'ページ遷移 RSC (navigation, prefetch)',
      weight: weights.navigation,
      requests: site.navigations.map((n) => get(n.path, n.headers, n.member)),
    },
  ];
}

/**
 * `--mix readers`: readers of every audience at once (anonymous 20 connections, free 10, paid
 * 20, client navigations 10) over the lists and the articles, while an editor changes one of
 * those articles' description through the content API `writeRate` times a second (each edit
 * publishes it: the pages that show it are renewed, docs/decisions/044-purge-what-a-change-showed.md).
 */
export function readerClasses(site: Site): LoadClass[] {
  const [edited] = site.ids;
  return [
    ...readingClasses(site, { anonymous: 20, free: 10, paid: 20, navigation: 10 }),
    ...(site.writeRate === 0
      ? []
      : [
          {
            name: '編集者 (an edit of one article a second)',
            weight: 1,
            overallRate: site.writeRate,
            requests: [
              {
                method: 'PATCH',
                path: `/api/v1/posts/${edited}`,
                headers: {
                  'x-microcms-api-key': site.writeKey,
                  'content-type': 'application/json',
                },
                setupRequest: (request: Request) => ({
                  ...request,
                  body: JSON.stringify({ description: `負荷試験で書き換えた概要 ${picks++}` }),
                }),
              },
            ],
          } satisfies LoadClass,
        ]),
  ];
}

/** A browser's page load (Sec-Fetch-Dest: document): what alone spends a metered read. */
const PAGE_LOAD = {
  'sec-fetch-dest': 'document',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
};

/**
 * `--mix metered` (docs/decisions/055-metered-wall.md): the readers' mix with the metered wall
 * on, plus free members loading the articles as documents, one member per request in turn:
 * request n is member n mod M reading article ⌊n / M⌋ (so each member meets each article in
 * order, and every member-only article they meet spends a read until the allowance is used
 * up); then the paywall, or a re-read of an article already read this month.
 */
export function meteredClasses(site: Site): LoadClass[] {
  const members = site.metered ?? [];
  let n = 0;
  return [
    ...readerClasses(site),
    {
      name: '無料会員のメーター (metered free readers, page loads)',
      weight: 20,
      requests: [
        {
          method: 'GET',
          path: '/',
          headers: PAGE_LOAD,
          setupRequest: (request: Request) => {
            const turn = n++;
            const id = site.ids[Math.floor(turn / members.length) % site.ids.length]!;
            const cookie = members[turn % members.length]!;
            return { ...request, path: `/posts/${id}`, headers: { ...request.headers, cookie } };
          },
        },
      ],
    },
  ];
}

export function loadClasses(site: Site): LoadClass[] {
  const get = getter(site);
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const api = { 'x-microcms-api-key': site.readKey };
  const bookmarks = { ...json, origin: site.siteUrl, referer: `${site.siteUrl}/posts` };
  const withFree = withCookies(site.jar, 'free');
  const bookmarkItems = site.ids.slice(0, 10).map((id) => `posts:${id}`);
  return [
    ...readingClasses(site, { anonymous: 25, free: 10, paid: 10, navigation: 15 }),
    {
      name: '検索 (search)',
      weight: 10,
      requests: [{ method: 'GET', path: '/search', setupRequest: nextSearch }],
    },
    {
      name: 'ブックマーク (bookmarks)',
      weight: 10,
      // As the bookmark button does: ask, add, remove (the table does not grow).
      requests: [
        get(`/api/bookmarks?items=${encodeURIComponent(bookmarkItems.join(','))}`, {}, 'free'),
        {
          method: 'POST',
          path: '/api/bookmarks',
          headers: bookmarks,
          setupRequest: (request, context: Context) => {
            context.item = pick(site.ids);
            return {
              ...withFree(request),
              body: JSON.stringify({ endpoint: 'posts', contentId: context.item, action: 'add' }),
            };
          },
        },
        {
          method: 'POST',
          path: '/api/bookmarks',
          headers: bookmarks,
          setupRequest: (request, context: Context) => ({
            ...withFree(request),
            body: JSON.stringify({ endpoint: 'posts', contentId: context.item, action: 'remove' }),
          }),
        },
      ],
    },
    {
      name: 'コンテンツ API 読み出し (API reads)',
      weight: 15,
      requests: [
        get('/api/v1/posts?limit=10', api),
        {
          method: 'GET',
          path: '/api/v1/posts',
          headers: api,
          setupRequest: (request) => ({ ...request, path: `/api/v1/posts/${pick(site.ids)}` }),
        },
        get('/api/v1/posts?limit=10&fields=id,title&filters=category[equals]cat-3', api),
        get(`/api/v1/posts?limit=10&q=${encodeURIComponent('デザイン')}`, api),
        get('/api/v1/posts?limit=10&offset=20&orders=-publishedAt', api),
      ],
    },
    ...writes(site),
  ];
}

function writes(site: Site): LoadClass[] {
  if (site.writeRate === 0) return [];
  const api = { 'x-microcms-api-key': site.writeKey };
  const [patched] = site.ids;
  return [
    {
      name: 'コンテンツ API 書き込み (API writes)',
      weight: 5,
      // Paced: far under the default 10 writes a second per key (CMS_RATE_LIMIT_WRITE). Each
      // PATCH publishes, which renews the pages that show the post on every instance.
      overallRate: site.writeRate,
      requests: [
        {
          method: 'PATCH',
          path: `/api/v1/posts/${patched}`,
          headers: { ...api, 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ title: `負荷試験で更新した記事 ${picks++ % 100}` }),
          }),
        },
        {
          method: 'POST',
          path: '/api/v1/posts?status=draft',
          headers: { ...api, 'content-type': 'application/json' },
          body: JSON.stringify({ title: '負荷試験の下書き', description: 'すぐに削除されます。' }),
          onResponse: (status, body, context: Context) => {
            if (status === 201) context.id = (JSON.parse(body) as { id: string }).id;
          },
        },
        {
          method: 'DELETE',
          path: '/api/v1/posts',
          headers: api,
          // No id when the POST failed (already counted): start the cycle again.
          setupRequest: (request, context: Context) =>
            typeof context.id === 'string'
              ? { ...request, path: `/api/v1/posts/${context.id}` }
              : (undefined as unknown as Request),
        },
      ],
    },
  ];
}

/**
 * Each class's connections out of `total`: a paced class needs no more connections than its
 * rate (autocannon would drop the rest), the others share what is left by weight (largest
 * remainders, so that the sum is `total`), at least one each.
 */
export function share(classes: LoadClass[], total: number): number[] {
  const sum = (ns: number[]) => ns.reduce((n, v) => n + v, 0);
  const counts = classes.map((c) =>
    c.overallRate ? Math.max(1, Math.min(c.overallRate, Math.round((total * c.weight) / 100))) : 0,
  );
  const free = classes.flatMap((c, i) => (c.overallRate ? [] : [i]));
  const rest = total - sum(counts);
  const weights = sum(free.map((i) => classes[i]!.weight));
  const exact = free.map((i) => (rest * classes[i]!.weight) / weights);
  free.forEach((i, k) => (counts[i] = Math.floor(exact[k]!)));
  const byRemainder = free
    .map((i, k) => ({ i, remainder: exact[k]! - Math.floor(exact[k]!) }))
    .sort((a, b) => b.remainder - a.remainder);
  for (let left = rest - sum(free.map((i) => counts[i]!)), k = 0; left > 0; left--, k++)
    counts[byRemainder[k % byRemainder.length]!.i]! += 1;
  return counts.map((n) => Math.max(1, n));
}
