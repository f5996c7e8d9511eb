import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { signInAs } from './support/roles';

/**
 * Slugs (docs/decisions/033-slugs-and-redirects.md) in Chromium: an editor types a post's id,
 * sees the public URL it gives and a clear refusal of a bad or taken one, creates it; renames a
 * published post, and its old URL answers 301 to the new one, whose served head carries the
 * post's search and sharing values and which the sitemap lists instead.
 * The stored references, the chains of redirects and the feed after a rename are the
 * integration tests' (src/server/services/cms/rename.integration.test.ts).
 */

/** A demo post every e2e database has: its id is taken. */
const TAKEN = 'post-052';
const TAKEN_MESSAGE = `「${TAKEN}」はほかの記事が使っています。別の ID にしてください。`;
const unique = () => `slug-e2e-${Date.now().toString(36)}`;

/** Deletes this test's own posts: other specs list the console's posts. */
async function removePosts(page: Page, ids: string[]) {
  const origin = new URL(page.url()).origin;
  for (const id of ids)
    await page.request.delete(`/api/admin/content/posts/${id}`, {
      headers: { accept: 'application/json', origin },
      data: {},
    });
}

async function sitemapPaths(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap/0.xml')).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
}

test('an editor chooses a new post’s URL and is told, in Japanese, why one cannot be used', async ({
  page,
}) => {
  await signInAs(page, 'editor');
  const slug = unique();
  await page.goto('/admin/content/posts/new');
  const origin = new URL(page.url()).origin;

  const idField = page.getByRole('textbox', { name: 'URL (ID)' });
  await idField.fill('Bad_Slug');
  await expect(idField).toHaveAccessibleDescription(/半角の英小文字 \(a-z\)・数字・ハイフン/);
  await expect(idField).toHaveAttribute('aria-invalid', 'true');
  await idField.fill(slug);
  await expect(page.getByText(`公開URL: ${origin}/posts/${slug}`)).toBeVisible();
  await expect(idField).not.toHaveAttribute('aria-invalid', 'true');

  try {
    // Taken: only the server knows; the save is refused on the id field.
    await idField.fill(TAKEN);
    await page.getByRole('textbox', { name: /^タイトル/ }).fill('スラッグを選んだ記事');
    await page.getByRole('button', { name: '下書きを保存' }).click();
    await expect(idField).toHaveAccessibleDescription(new RegExp(TAKEN_MESSAGE));
    await expect(page).toHaveURL(/\/admin\/content\/posts\/new$/);

    await idField.fill(slug);
    await page.getByRole('button', { name: '下書きを保存' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/content/posts/${slug}$`));
    await expect(page.getByText(`公開URL: ${origin}/posts/${slug}`)).toBeVisible();
  } finally {
    await removePosts(page, [slug]);
  }
});

test('renaming a published post: the old URL answers 301 and the sitemap lists the new one', async ({
  page,
}) => {
  const first = unique();
  const second = `${first}-renamed`;
  // Published long ago, so no other spec's newest posts change while it exists.
  const key = (await admin('create-api-key', '--name', 'e2e slugs', '--permissions', 'PUT')).at(
    -1,
  )!;
  const created = await page.request.put(`/api/v1/posts/${first}`, {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: {
      title: '改名される記事',
      isPublicPreview: true,
      publishedAt: '2001-04-01T00:00:00Z',
      seo: { metaTitle: 'シェアされる題', metaDescription: 'シェアされる説明。' },
    },
  });
  expect(created.status()).toBe(201);
  await signInAs(page, 'editor');
  await page.goto(`/admin/content/posts/${first}`);
  const origin = new URL(page.url()).origin;

  try {
    expect(await sitemapPaths(page.request)).toContain(`/posts/${first}`);
    await page.getByRole('button', { name: 'URL (ID) を変更' }).click();
    const newId = page.getByRole('textbox', { name: /^新しい ID/ });
    await expect(newId).toBeFocused();
    await newId.fill(TAKEN);
    await newId.press('Enter');
    await expect(newId).toHaveAccessibleDescription(new RegExp(TAKEN_MESSAGE));
    // The new item's screen is checked by share-previews.spec.ts; this is the rename's.
    await expectNoAxeViolations(page, 'the id field being changed, with its refusal');
    await newId.fill(second);
    await newId.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/admin/content/posts/${second}$`));
    await expect(page.getByText(`公開URL: ${origin}/posts/${second}`)).toBeVisible();
    await expect(
      page.getByText(`以前の ID (${first}) の URL は、ここへ転送されます。`),
    ).toBeVisible();

    const old = await page.request.get(`/posts/${first}?from=share`, { maxRedirects: 0 });
    expect(old.status()).toBe(301);
    const location = new URL(old.headers().location ?? '', origin);
    expect(location.pathname + location.search).toBe(`/posts/${second}?from=share`);
    // The served head names the new URL, with the editor's values and the generated image.
    const head = (await (await page.request.get(`/posts/${second}`)).text()).split('</head>')[0]!;
    expect(head).toContain('<title>シェアされる題</title>');
    expect(head).toContain('<meta name="description" content="シェアされる説明。"/>');
    expect(head).toContain(`<link rel="canonical" href="${origin}/posts/${second}"/>`);
    expect(head).toMatch(
      new RegExp(`<meta property="og:image" content="${origin}/share-image/posts/${second}\\?v=`),
    );
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    const paths = await sitemapPaths(page.request);
    expect(paths).toContain(`/posts/${second}`);
    expect(paths).not.toContain(`/posts/${first}`);
  } finally {
    await removePosts(page, [second, first]);
  }
});
