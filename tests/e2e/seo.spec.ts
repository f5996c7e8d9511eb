import { type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';

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
