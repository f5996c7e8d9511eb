import { type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';

// Author and series pages on a phone (docs/decisions/035-authors-and-series.md), with the demo
// corpus: a series lists its episodes in order and names its feed in the head, a byline leads
// to the writer's page with rel="author", and from there to a post; nothing scrolls sideways.

test.use({ viewport: { width: 360, height: 800 } });

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test('series in order → episode byline → author page → a post', async ({ page }) => {
  await page.goto('/series/series-town');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('まちを編む建築');
  // The head names the site feed, then the series' own.
  const feeds = page.locator('head link[rel="alternate"][type="application/rss+xml"]');
  const feedPaths = async () =>
    await feeds.evaluateAll((links) => links.map((l) => new URL(l.getAttribute('href')!).pathname));
  expect(await feedPaths()).toEqual(['/feed.xml', '/series/series-town/feed.xml']);
  const episodes = page.getByRole('region', { name: 'この連載の記事' }).getByRole('article');
  const numbers = (
    await episodes.evaluateAll((cards) =>
      cards.map((card) => /第(\d+)回/.exec(card.textContent ?? '')?.[1]),
    )
  ).map(Number);
  expect(numbers.length).toBeGreaterThan(1);
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  await noSidewaysScroll(page);

  await episodes.first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/posts\//);
  expect(await feedPaths()).toEqual(['/feed.xml', '/series/series-town/feed.xml']);
  const byline = page.locator('header a[rel="author"]').first();
  await expect(byline).toHaveText('小林 亮');
  await byline.click();

  await expect(page).toHaveURL(/\/authors\/writer-kobayashi$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('小林 亮');
  await expect(page.getByText('建築ライター', { exact: true })).toBeVisible();
  await noSidewaysScroll(page);
  await expectNoAxeViolations(page, 'author page');
  const work = page.getByRole('region', { name: '小林 亮の記事' }).getByRole('article').first();
  const title = (await work.getByRole('heading').innerText()).trim();
  await work.getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
});
