import { expect, test } from '@playwright/test';
import { loadDefaultJapaneseParser } from 'budoux';
import { admin } from './support/admin';
import { expectNoAxeViolations, resizeTo, sidewaysScroll } from './support/axe';

/**
 * Reading aids and headline type (docs/decisions/034-reading-aids-and-type.md), what only a
 * browser shows: the 目次 folded on a phone and sticky beside the text on a desktop, its links
 * landing on ids that exist, and the title breaking only between BudouX phrases. Leaves
 * docs/screenshots/article-360.png and article-1280.png.
 */

type Post = { id: string; title: string };

/** Where each rendered line of the title starts (after the first), as text offsets. */
const lineStarts = () => {
  const h1 = document.querySelector('h1')!;
  const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
  const starts: number[] = [];
  let offset = 0;
  let top: number | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect) {
        if (top !== null && rect.top > top + rect.height / 2) starts.push(offset + i);
        top = rect.top;
      }
    }
    offset += text.length;
  }
  return starts;
};

test('a post’s 目次 and title: folded and unbroken on a phone, sticky beside the text on a desktop', async ({
  page,
  request,
}) => {
  const key = (
    await admin('create-api-key', '--name', 'e2e reading aids', '--permissions', 'GET')
  ).at(-1)!;
  const response = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[equals]true')}&limit=100&fields=id,title,body`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  // A demo post (ids post-NNN) open to all, with a 目次 (3 headings or more) and a title whose
  // phrases each fit a phone's line (a longer phrase must break inside itself): never whichever is
  // newest, since other specs publish posts of their own while this one runs.
  const parser = loadDefaultJapaneseParser();
  const post = (
    (await response.json()) as { contents: (Post & { body?: string })[] }
  ).contents.find(
    (p) =>
      /^post-\d+$/.test(p.id) &&
      (p.body?.match(/<h[23][\s>]/g) ?? []).length >= 3 &&
      parser.parse(p.title).every((phrase) => phrase.length <= 8),
  );

  expect(post, 'an open post with 3 headings or more').toBeDefined();
  await resizeTo(page, 360, 800);
  await page.goto(`/posts/${post!.id}`);
  const toc = page.getByRole('navigation', { name: '目次' });
  // By selector: a role query skips the links of a folded <details>.
  const links = toc.locator('a[href^="#"]');
  // Folded on a phone: the summary shows, the links wait for a tap.
  await expect(toc.locator('summary')).toBeVisible();
  await expect(links.first()).toBeHidden();
  expect(await links.count()).toBeGreaterThanOrEqual(3);
  // Every entry points at a heading on the page.
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    const id = decodeURIComponent(href.slice(1));
    await expect(page.locator(`[id="${id}"]`), href).toHaveCount(1);
  }

  // The title: one <wbr> between BudouX phrases, and its lines start only at one of them.
  const phrases = parser.parse(post!.title);
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText(post!.title);
  expect(await h1.locator('wbr').count()).toBe(phrases.length - 1);
  const boundaries = phrases.slice(0, -1).map((_, i) => phrases.slice(0, i + 1).join('').length);
  const starts = await page.evaluate(lineStarts);
  for (const start of starts) expect(boundaries, `a line starts at ${start}`).toContain(start);
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);

  await toc.locator('summary').click();
  await expect(links.first()).toBeVisible();
  await expectNoAxeViolations(page);
  await page.evaluate(() => document.querySelector('nav[aria-label="目次"]')!.scrollIntoView());
  await page.screenshot({ path: 'docs/screenshots/article-360.png' });

  // A desktop: open beside the text, and still in view far down the article.
  await resizeTo(page, 1280, 900);
  await expect(toc.locator('details')).toHaveJSProperty('open', true);
  await expect(links.first()).toBeVisible();
  await page.evaluate(() => document.querySelector('h2[id]')!.scrollIntoView());
  await page.screenshot({ path: 'docs/screenshots/article-1280.png' });
  const text = await page.locator('h2[id]').first().boundingBox();
  const beside = await toc.boundingBox();
  expect(beside!.x).toBeGreaterThan(text!.x + text!.width);
  await page.evaluate(() => window.scrollBy(0, 1500));
  await expect.poll(async () => (await toc.boundingBox())!.y, { timeout: 2000 }).toBeLessThan(200);
  expect((await toc.boundingBox())!.y).toBeGreaterThanOrEqual(0);
});
