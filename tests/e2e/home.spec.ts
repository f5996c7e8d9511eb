import { type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';

// The front page as a design magazine's: one lead story, then sections that each show
// something new and lead to their list; the feature issues as issues; search using the width.
// All against the demo corpus.

/** A content item's page: what "the same item twice" is about (not section or list links). */
const ITEM_LINK = /^\/(posts|movies|audios|jobs|connect)\/[^/?#]+$|^\/series#/;

async function itemLinks(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByRole('main')
    .locator('a[href]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.filter((href) => ITEM_LINK.test(href));
}

/** Where the footer starts, from the top of the document. */
async function footerTop(page: Page): Promise<number> {
  return page
    .getByRole('contentinfo')
    .evaluate((footer) => footer.getBoundingClientRect().top + window.scrollY);
}

const SECTIONS: [heading: string, link: string, href: string][] = [
  ['新着記事', '記事一覧', '/posts'],
  ['特集', '特集一覧', '/feature'],
  ['連載', '連載一覧', '/series'],
  ['動画', '動画一覧', '/movies'],
  ['音声', '音声一覧', '/audios'],
  ['インサイト', 'インサイト一覧', '/insight'],
  ['新着の求人', '求人一覧', '/jobs'],
];

test('the home page leads with one large story and never shows an item twice', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const main = page.getByRole('main');

  // The lead story is the first story of the page, the widest, and above the fold.
  const stories = main.getByRole('article');
  const lead = stories.first();
  const leadLink = lead.getByRole('heading', { level: 3 }).getByRole('link');
  await expect(leadLink).toHaveAttribute('href', /^\/posts\/[^/]+$/);
  await expect(leadLink).toBeInViewport();
  const leadBox = (await lead.boundingBox())!;
  const nextBox = (await stories.nth(1).boundingBox())!;
  expect(leadBox.width).toBeGreaterThan(nextBox.width * 2);
  expect(leadBox.y).toBeLessThan(nextBox.y);
  const firstSection = (await main.getByRole('heading', { name: '新着記事' }).boundingBox())!;
  expect(leadBox.y).toBeLessThan(firstSection.y);

  const links = await itemLinks(page);
  expect(links.length).toBeGreaterThanOrEqual(15);
  expect(links.filter((href, i) => links.indexOf(href) !== i)).toEqual([]);
  expect(links[0]).toBe(await leadLink.getAttribute('href'));
});

test('each section of the home page has its 一覧 link, and each list answers', async ({
  page,
  request,
}) => {
  await page.goto('/');
  for (const [heading, label, href] of SECTIONS) {
    const section = page.getByRole('region', { name: heading, exact: true });
    await expect(section, heading).toBeVisible();
    const more = section.getByRole('link', { name: label, exact: true });
    await expect(more, heading).toHaveAttribute('href', href);
    expect((await request.get(href)).status(), href).toBe(200);
  }
  // The current issue: its number and theme, and a way into it.
  const feature = page.getByRole('region', { name: '特集', exact: true });
  await expect(feature.getByText(/^No\.\d+$/)).toBeVisible();
  await expect(feature.getByRole('heading', { level: 3 })).toBeVisible();
});

test('on a phone the home page is at most about five screens before the footer', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  // The lead story starts on the first screen.
  const lead = page.getByRole('main').getByRole('article').first();
  expect((await lead.boundingBox())!.y).toBeLessThan(844);
  expect(await footerTop(page)).toBeLessThanOrEqual(5 * 844);
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBe(0);
  const links = await itemLinks(page);
  expect(links.filter((href, i) => links.indexOf(href) !== i)).toEqual([]);
  await expectNoAxeViolations(page);
});

test('the feature index shows every issue with its number, theme and lead article; an issue opens with its masthead', async ({
  page,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e home', '--permissions', 'GET')).at(-1)!;
  const res = await request.get(
    '/api/v1/categories?limit=100&orders=-issueNumber&fields=id,name,issueNumber,isFeatured',
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  expect(res.status()).toBe(200);
  const { contents: issues } = (await res.json()) as {
    contents: { id: string; name: string; issueNumber?: number; isFeatured: boolean }[];
  };
  const current = issues.find((issue) => issue.isFeatured) ?? issues[0]!;
  expect(current.issueNumber).toBeDefined();

  await page.goto('/feature');
  const main = page.getByRole('main');
  // The current issue comes first, marked as the latest.
  const first = main.getByRole('article').first();
  await expect(first.getByRole('heading', { level: 2 })).toHaveText(current.name);
  await expect(first.getByText(`No.${current.issueNumber}`, { exact: true })).toBeVisible();
  await expect(first.getByText('最新号', { exact: true })).toBeVisible();
  await expect(first.getByText('巻頭記事', { exact: true })).toBeVisible();
  for (const issue of issues) {
    const row = main
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: issue.name, exact: true }) });
    await expect(row, issue.name).toHaveCount(1);
    if (issue.issueNumber)
      await expect(row.getByText(`No.${issue.issueNumber}`, { exact: true })).toBeVisible();
  }

  await first.getByRole('heading', { level: 2 }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/feature/${current.id}$`));
  // The masthead: number, theme as the title, then the lead article large, then the others.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(current.name);
  await expect(main.getByText(`No.${current.issueNumber}`, { exact: true })).toBeVisible();
  const leadArticle = main.getByRole('article').first();
  await expect(leadArticle.getByRole('heading', { level: 2 }).getByRole('link')).toHaveAttribute(
    'href',
    /^\/posts\//,
  );
  await expect(main.getByRole('heading', { level: 2, name: 'この特集のほかの記事' })).toBeVisible();
});

test('search at desktop width shows each result with a thumbnail beside it and the filter in a side column', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/search?q=${encodeURIComponent('グリッドシステム')}`);
  const results = page.getByRole('main').getByRole('article');
  await expect(results.first()).toBeVisible();
  const count = await results.count();
  for (let i = 0; i < count; i++) {
    const result = results.nth(i);
    const thumb = (await result.locator('img').boundingBox())!;
    const title = (await result.getByRole('heading', { level: 2 }).boundingBox())!;
    // Beside the title, to its left, on the same row.
    expect(thumb.x + thumb.width).toBeLessThanOrEqual(title.x);
    expect(thumb.y).toBeLessThan(title.y + title.height);
  }
  const filter = (await page.getByRole('navigation', { name: '種類で絞り込む' }).boundingBox())!;
  const list = (await results.first().boundingBox())!;
  expect(filter.x + filter.width).toBeLessThanOrEqual(list.x);

  // A phone keeps one column and never scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect
    .poll(() =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    )
    .toBe(0);
  const narrowFilter = (await page
    .getByRole('navigation', { name: '種類で絞り込む' })
    .boundingBox())!;
  expect(narrowFilter.y + narrowFilter.height).toBeLessThanOrEqual(
    (await results.first().boundingBox())!.y,
  );
});
