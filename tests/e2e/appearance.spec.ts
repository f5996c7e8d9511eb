import { type Page, expect, test } from '@playwright/test';
import { resizeTo, sidewaysScroll } from './support/axe';

/**
 * The pages a reader judges the site by, at a phone and a desktop width, attached to the test
 * report (playwright-report/) so a person can look at them after every run. Each shot also
 * checks what a screenshot would show broken: no sideways scroll, the page's heading visible.
 * Files run in name order: this one comes before any spec that adds content, so the shots show
 * the demo corpus a new reader sees.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** The first item link of a list page: the demo ids are not fixed. */
async function firstItem(page: Page, list: string, prefix: string) {
  await page.goto(list);
  const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href');
  expect(href, `an item on ${list}`).toBeTruthy();
  return href!;
}

test('screenshots of home, a post, an audio episode and search at 390 and 1280 px', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const routes = [
    { name: 'home', path: '/' },
    { name: 'post', path: await firstItem(page, '/posts', '/posts/') },
    { name: 'audio', path: await firstItem(page, '/audios', '/audios/') },
    { name: 'search', path: '/search?q=デザイン' },
  ];
  // Each page once, shot at each width in turn (resized in place, not reloaded).
  for (const route of routes) {
    await resizeTo(page, WIDTHS[0]!.width, WIDTHS[0]!.height);
    await page.goto(route.path);
    await expect(page.locator('h1').first()).toBeVisible();
    for (const viewport of WIDTHS) {
      await resizeTo(page, viewport.width, viewport.height);
      await page.evaluate(() => document.fonts.ready);
      const overflow = await sidewaysScroll(page);
      expect(
        overflow,
        `${route.path} at ${viewport.width} px scrolls sideways`,
      ).toBeLessThanOrEqual(0);
      await testInfo.attach(`${route.name}-${viewport.width}.png`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: 'image/png',
      });
    }
  }
});
