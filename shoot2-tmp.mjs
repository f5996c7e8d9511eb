import { chromium } from 'playwright-core';
const BASE = 'http://127.0.0.1:3314';
const out = '/work/wt-metered/.tmp/shots';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', args: ['--no-sandbox'] });
const ctxFor = async (email) => {
  const ctx = await browser.newContext({ locale: 'ja-JP', userAgent: UA });
  const r = await ctx.request.post(BASE + '/api/account/sign-in', { headers: { accept: 'application/json' }, form: { email, password: 'Yakumo-no-Niwa-2026' } });
  console.log('sign-in', email, r.status());
  return ctx;
};
const shot = async (page, name) => {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${out}/${name}-${width}.png` });
  }
};
const page = await (await ctxFor('meter2@example.jp')).newPage();
// A client navigation (no page load): from the list, click a members' post beyond the free plan.
await page.goto(BASE + '/posts?page=1');
const links = page.locator('a[href^="/posts/"]');
const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
console.log(hrefs.slice(0, 12));
await page.locator('a[href="/posts/post-057"]').first().click();
await page.waitForURL('**/posts/post-057');
await page.locator('[data-paywall]').waitFor();
console.log('navigation paywall:', await page.locator('[data-paywall]').innerText());
await page.locator('[data-paywall]').scrollIntoViewIfNeeded();
await shot(page, 'metered-navigation');
await page.getByRole('link', { name: '全文を読む' }).click();
await page.waitForLoadState('load');
console.log('after 全文を読む full?', (await page.locator('[data-paywall]').count()) === 0);
await page.evaluate(() => window.scrollTo(0, 0));
await shot(page, 'metered-top2');
const admin = await (await ctxFor('boss@example.jp')).newPage();
await admin.goto(BASE + '/admin/settings');
await shot(admin, 'admin-settings');
console.log((await admin.locator('main').innerText()).slice(0, 800));
await browser.close();
