import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';
import { E2E_SITE_URL } from './support/settings';
import { signInAs } from './support/roles';

type Ld = Record<string, unknown> & { '@type': string };

async function jsonLd(page: Page): Promise<Ld[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((text) => {
    const value = JSON.parse(text) as Ld | Ld[];
    return Array.isArray(value) ? value : [value];
  });
}

test('JSON-LD: Organization and WebSite with a search action on the home page; Article for posts', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const home = await jsonLd(page);
  const site = home.find((d) => d['@type'] === 'WebSite')!;
  expect(JSON.stringify(site.potentialAction)).toContain('/search?q={search_term_string}');
  expect(home.some((d) => d['@type'] === 'Organization')).toBe(true);

  const key = (await admin('create-api-key', '--name', 'e2e seo', '--permissions', 'GET')).at(-1)!;
  const list = await request.get(
    `/api/v1/posts?limit=1&fields=id,title&filters=${encodeURIComponent('isPublicPreview[not_equals]true')}`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  const post = ((await list.json()) as { contents: { id: string; title: string }[] }).contents[0]!;
  await page.goto(`/posts/${post.id}`);
  const data = await jsonLd(page);
  const article = data.find((d) => d['@type'] === 'Article' || d['@type'] === 'NewsArticle')!;
  expect(article.headline).toBe(post.title);
  expect(article.isAccessibleForFree).toBe(false);
  expect(JSON.stringify(article.hasPart)).toContain('.paywalled');
  await expect(page.locator('.paywalled')).toHaveCount(1);
  expect(data.some((d) => d['@type'] === 'BreadcrumbList')).toBe(true);
});

test('the sitemap index, its files and the feed parse and list only published items', async ({
  page,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e seo2', '--permissions', 'GET,POST')).at(
    -1,
  )!;
  const draft = await request.post('/api/v1/posts?status=draft', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: { title: 'サイトマップに出ない下書き', body: '<p>下書き</p>' },
  });
  const { id: draftId } = (await draft.json()) as { id: string };

  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('/sitemap.xml');
  const index = await request.get('/sitemap.xml');
  expect(index.headers()['content-type']).toContain('xml');
  const indexXml = await index.text();
  const files = [...indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(files[0]).toBe('/sitemap/0.xml');
  const urls: string[] = [];
  for (const file of files) {
    const xml = await (await request.get(file)).text();
    // A parser in the browser: the file must be well-formed XML.
    const ok = await page.evaluate(
      (text) =>
        !new DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror'),
      xml,
    );
    expect(ok, file).toBe(true);
    urls.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname));
  }
  expect(urls).toContain('/posts');
  expect(urls.some((u) => u.startsWith('/posts/post-'))).toBe(true);
  expect(urls.some((u) => u.startsWith('/connect/'))).toBe(false);
  expect(urls).not.toContain(`/posts/${draftId}`);

  const feed = await request.get('/feed.xml');
  expect(feed.headers()['content-type']).toContain('application/rss+xml');
  const rss = await feed.text();
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    return {
      ok: !doc.querySelector('parsererror'),
      items: [...doc.querySelectorAll('item > link')].map((l) => l.textContent ?? ''),
    };
  }, rss);
  expect(parsed.ok).toBe(true);
  expect(parsed.items.length).toBeGreaterThan(10);
  expect(parsed.items.some((link) => link.endsWith(`/posts/${draftId}`))).toBe(false);
});

// The detail routes' metadata (src/lib/metadata.ts pageMetadata): '{page} | {site name}', a
// description cut to 120 characters (code points, whitespace collapsed) and then '…', the
// item's cover as og:image, a canonical URL on SITE_URL; the JSON-LD each page emits
// (src/lib/json-ld/); and no axe violations.

const SITE_NAME = 'AXIS Membership';
const DESCRIPTION_MAX = 120;

type Cover = { url: string; width?: number; height?: number; alt?: string };
type Detail = {
  id: string;
  title?: string;
  name?: string;
  description?: string;
  coverImage?: Cover;
};

/** What a page's <meta name="description"> must say for a CMS description. */
function cutDescription(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  if (chars.length <= DESCRIPTION_MAX) return chars.join('');
  return `${chars.slice(0, DESCRIPTION_MAX).join('').trimEnd()}…`;
}

const absolute = (path: string) => new URL(path, E2E_SITE_URL).href;

async function apiKey(permissions: string): Promise<string> {
  return (await admin('create-api-key', '--name', 'e2e detail', '--permissions', permissions)).at(
    -1,
  )!;
}

async function firstOf(
  request: APIRequestContext,
  key: string,
  endpoint: string,
  filters: string,
): Promise<Detail> {
  // With a cover and a description: items other specs create may have neither.
  const all = ['coverImage[exists]', 'description[exists]', ...(filters ? [filters] : [])];
  const res = await request.get(
    `/api/v1/${endpoint}?limit=1&fields=id,title,name,description,coverImage&filters=${encodeURIComponent(all.join('[and]'))}`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  expect(res.status()).toBe(200);
  const item = ((await res.json()) as { contents: Detail[] }).contents[0];
  expect(item, `${endpoint} ${filters}`).toBeDefined();
  return item!;
}

// A long description, whitespace and all, whose 120th character is an emoji (two UTF-16
// units): the cut keeps it whole.
const sentence = '使い手の工夫を受け止める余白のある設計。';
const longHead = sentence.repeat(3); // 60 characters
const longTail = sentence.repeat(3).slice(0, 58);
const LONG_DESCRIPTION = `${longHead}\n\n   ${longTail}😀 この先は切り捨てられる文章です。${sentence}`;
const LONG_CUT = `${longHead} ${longTail}😀…`;

type Case = {
  path: string;
  title: string;
  description: string;
  cover?: Cover;
  /** The @types of the page's JSON-LD, in order. */
  jsonLd: string[];
  /** A list page need not have any JSON-LD; what it has must be as listed. */
  jsonLdOptional?: boolean;
  /** The last breadcrumb's name, when it is not the title. */
  crumb?: string;
  signedIn?: boolean;
};
const LABELS = {
  post: 'a members’ post',
  longPost: 'a post with a long description',
  connect: 'a connect page, anonymous',
  connectMember: 'a connect page with a long description, signed in',
  audio: 'an audio',
  movie: 'a movie',
  feature: 'a feature issue',
} as const;
const cases: Partial<Record<keyof typeof LABELS, Case>> = {};

test.describe('detail pages: title, description, share image, canonical URL, JSON-LD and axe', () => {
  test.beforeAll(async ({ request }) => {
    const key = await apiKey('GET,POST');
    const post = await firstOf(request, key, 'posts', 'isPublicPreview[not_equals]true');
    const connect = await firstOf(request, key, 'connect', '');
    const audio = await firstOf(request, key, 'audios', 'isPublicPreview[not_equals]true');
    const movie = await firstOf(request, key, 'movies', 'isPublicPreview[not_equals]true');
    const feature = await firstOf(request, key, 'categories', '');
    const create = async (endpoint: string, data: object) => {
      const res = await request.post(`/api/v1/${endpoint}`, {
        headers: { 'X-MICROCMS-API-KEY': key },
        data,
      });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const longPost = await create('posts', {
      title: '長い概要を持つ記事',
      description: LONG_DESCRIPTION,
      coverImage: post.coverImage,
      isPublicPreview: true,
      body: '<p>概要が長い記事の本文です。ここまで読めば十分な長さになります。</p><p>二つ目の段落も、誰でも全文を読むことができます。</p>',
    });
    const longConnect = await create('connect', {
      title: '長い概要を持つコネクト',
      description: LONG_DESCRIPTION,
      coverImage: connect.coverImage,
      body: '<p>コネクトの本文です。</p><p>会員どうしの集まりのお知らせです。</p>',
    });
    for (const item of [post, connect, audio, movie, feature])
      expect(item.coverImage, item.id).toBeDefined();

    const article = ['Article', 'BreadcrumbList'];
    Object.assign(cases, {
      post: {
        path: `/posts/${post.id}`,
        title: post.title!,
        description: post.description!,
        cover: post.coverImage,
        jsonLd: article,
      },
      longPost: {
        path: `/posts/${longPost}`,
        title: '長い概要を持つ記事',
        description: LONG_DESCRIPTION,
        cover: post.coverImage,
        jsonLd: article,
      },
      connect: {
        path: `/connect/${connect.id}`,
        title: connect.title!,
        description: connect.description!,
        cover: connect.coverImage,
        jsonLd: article,
      },
      connectMember: {
        path: `/connect/${longConnect}`,
        title: '長い概要を持つコネクト',
        description: LONG_DESCRIPTION,
        cover: connect.coverImage,
        jsonLd: article,
        signedIn: true,
      },
      audio: {
        path: `/audios/${audio.id}`,
        title: audio.title!,
        description: audio.description!,
        cover: audio.coverImage,
        jsonLd: ['PodcastEpisode', 'BreadcrumbList'],
      },
      movie: {
        path: `/movies/${movie.id}`,
        title: movie.title!,
        description: movie.description!,
        cover: movie.coverImage,
        jsonLd: ['VideoObject', 'BreadcrumbList'],
      },
      feature: {
        path: `/feature/${feature.id}`,
        title: `特集「${feature.name}」`,
        description: feature.description!,
        cover: feature.coverImage,
        jsonLd: ['BreadcrumbList'],
        jsonLdOptional: true,
        crumb: feature.name,
      },
    } satisfies Record<keyof typeof LABELS, Case>);
  });

  for (const [name, label] of Object.entries(LABELS) as [keyof typeof LABELS, string][]) {
    test(label, async ({ page }) => {
      const item = cases[name]!;
      test.info().annotations.push({ type: 'page', description: item.path });
      if (item.signedIn) await signInAs(page, 'member');
      const response = await page.goto(item.path);
      expect(response?.status()).toBe(200);
      if (item.path.startsWith('/connect/')) {
        // The page the viewer is meant to see: the lead and a way in, or the whole page.
        await expect(page.getByRole('heading', { name: 'このページは会員限定です' })).toHaveCount(
          item.signedIn ? 0 : 1,
        );
      }

      await expect(page).toHaveTitle(`${item.title} | ${SITE_NAME}`);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description).toBe(cutDescription(item.description));
      expect(description).toBeTruthy();
      // Posts and connect pages: at most 120 characters, and '…' after them when cut.
      if (/^\/(posts|connect)\//.test(item.path)) {
        const chars = Array.from(description!);
        if (chars.at(-1) === '…') expect(chars.length).toBeLessThanOrEqual(DESCRIPTION_MAX + 1);
        else expect(chars.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
      }
      if (item.description === LONG_DESCRIPTION) {
        // Cut after its 120th character, the emoji, and not inside it.
        expect(description).toBe(LONG_CUT);
        expect(Array.from(LONG_CUT).slice(-2)).toEqual(['😀', '…']);
        expect(Array.from(LONG_CUT)).toHaveLength(DESCRIPTION_MAX + 1);
      }

      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        absolute(item.cover!.url),
      );
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        absolute(item.path),
      );
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
        'content',
        absolute(item.path),
      );

      const data = await jsonLd(page);
      const types = data.map((d) => d['@type']);
      if (!(item.jsonLdOptional && types.length === 0)) expect(types).toEqual(item.jsonLd);
      for (const d of data) expect(d['@context']).toBe('https://schema.org');
      const main = data.find((d) => d['@type'] !== 'BreadcrumbList');
      if (main) {
        expect(main.url).toBe(absolute(item.path));
        expect(main[main['@type'] === 'Article' ? 'headline' : 'name']).toBe(item.title);
        expect(main.description).toBe(description);
        const images = (main.image ?? main.thumbnailUrl) as string[];
        expect(images).toEqual([absolute(item.cover!.url)]);
        // Members' media: no file or player URL in the structured data.
        expect(main.contentUrl).toBeUndefined();
        expect(main.embedUrl).toBeUndefined();
        expect(main.associatedMedia).toBeUndefined();
      }
      const trail = data.find((d) => d['@type'] === 'BreadcrumbList');
      if (trail) {
        const items = trail.itemListElement as { name: string; item: string }[];
        expect(items[0]).toMatchObject({ name: 'ホーム', item: absolute('/') });
        expect(items.at(-1)).toMatchObject({
          name: item.crumb ?? item.title,
          item: absolute(item.path),
        });
      }

      await expectNoAxeViolations(page);
    });
  }
});
